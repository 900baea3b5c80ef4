// Go Squadron's memory slots in the loader: memory and packet blocks, a mission's memories, memory,
// scratchpad and packets, Go's rules for their names and paths, and the .hcl files of a packet's
// folder left out of the config.

import { afterAll, describe, expect, test } from 'vitest';
import { at, codes, loadFiles, loadHcl, MODEL, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

const mission = (slots: string, extra = ''): string => `${MODEL}${extra}
mission "m" {
  commander { model = models.claude.claude_sonnet_4_6 }
${slots}
  task "t" {
    objective = "x"
    tools     = [builtins.http.get]
  }
}
`;

describe('memory slots', () => {
  test('a mission lists shared memories and packets, has its memory and a scratchpad: all in the graph', () => {
    const r = loadFiles({
      'main.hcl': mission('  memories   = [memories.notes]\n  packets    = [packets.guide]\n  memory { description = "own" }\n  scratchpad = true', 'memory "notes" {\n  description = "shared"\n}\npacket "guide" {\n  path = "./guide"\n}\n'),
      'guide/a.md': 'x',
    });
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.slots).toEqual({ shared: ['notes'], packets: ['guide'], scratchpad: true, memory: { description: 'own' } });
    expect(r.graph!.memories!.map((m) => m.name)).toEqual(['notes']);
    expect(r.graph!.packets![0]!.path).toBe(`${r.dir}/guide`);
  });

  test('Go rules: description required, reserved names (GO011), a memory named like a mission (GO012), unknown references (REF003), one memory block', () => {
    const src = mission('  memories = [memories.note]\n  memory { description = "a" }\n  memory { description = "b" }', 'memory "notes" {\n  description = "n"\n}\nmemory "scratchpad" {\n  description = "s"\n}\nmemory "m" {\n  description = "s"\n}\nmemory "bare" {\n}\n');
    const r = loadHcl(src);
    const got = codes(r);
    expect(got).toContain(`GO011@${at(src, '"scratchpad"')}`);
    expect(got).toContain(`GO012@${at(src, '"m" {')}`);
    expect(got).toContain(`REF003@${at(src, 'memories.note]')}`);
    expect(r.diagnostics.some((d) => d.message.includes('description'))).toBe(true);
    expect(r.diagnostics.some((d) => d.code.startsWith('SCH') && d.message.includes('memory'))).toBe(true);
    expect(r.diagnostics.find((d) => d.code === 'REF003')!.hint).toContain('memories.notes');
  });

  test('a packet path: absolute (FIL006), outside the project (FIL002), missing (FIL001), a file (FIL004)', () => {
    const src = `packet "a" {\n  path = "/tmp"\n}\npacket "b" {\n  path = "../x"\n}\npacket "c" {\n  path = "./nope"\n}\npacket "d" {\n  path = "./main.hcl"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`FIL006@${at(src, '"/tmp"')}`, `FIL002@${at(src, '"../x"')}`, `FIL001@${at(src, '"./nope"')}`, `FIL004@${at(src, '"./main.hcl"')}`]);
    expect(r.diagnostics[0]!.hint).toContain('"@/"');
  });

  test('the .hcl files inside a packet folder are not config (a broken one included)', () => {
    const r = loadFiles({
      'main.hcl': mission('  packets = [packets.examples]', 'packet "examples" {\n  path = "@/examples"\n}\n'),
      'examples/broken.hcl': 'mission "x" {\n  this is not hcl\n',
      'examples/other.hcl': 'mission "m" {}\n',
    });
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions.map((m) => m.name)).toEqual(['m']);
  });
});
