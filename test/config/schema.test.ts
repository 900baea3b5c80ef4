// Strict blocks: unknown attributes and blocks, missing required ones, label counts, block counts,
// duplicate names and the block-name rule — each with its exact code and position.

import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { messageText } from '../../config/diagnostics.js';
import { at, codes, loadFiles, loadHcl, MODEL, only, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

describe('strict blocks', () => {
  test('an unknown attribute is SCH001 at its name, with a did-you-mean hint', () => {
    const src = `model "claude" {\n  provider = "anthropic"\n  api_kye  = "k"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toContain(`SCH001@${at(src, 'api_kye')}`);
    expect(only(r, 'SCH001').hint).toBe('did you mean api_key?');
    expect(r.graph).toBeUndefined();
  });

  test('an unknown nested block is SCH002 at its type keyword', () => {
    const src = withMission(`  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n    routr {\n    }\n  }\n`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH002@${at(src, 'routr')}`]);
    expect(only(r, 'SCH002').hint).toBe('did you mean router?');
  });

  test('an unknown top-level block is SCH002; a Go-only block says what to do instead', () => {
    const src = `gateway "pw" {\n}\nmodle "x" {\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['w:GO002@1:1', 'SCH002@3:1']);
    expect(r.diagnostics[0]!.hint).toMatch(/squadron serve/);
    expect(r.diagnostics[1]!.hint).toBe('did you mean model?');
  });

  test('a plugin block needs a version, and a version is local or semantic (PLG002)', () => {
    const missing = loadHcl(`plugin "pw" {\n  source = "./bin/pw"\n}\n`);
    expect(codes(missing)).toEqual(['SCH003@1:1']);
    const bad = loadHcl(`plugin "pw" {\n  source  = "github.com/a/b"\n  version = "latest"\n}\n`);
    expect(codes(bad)).toEqual(['PLG002@3:13']);
  });

  test('an attribute written as a block (and the reverse) gets a hint saying which it is', () => {
    const src = withMission(`  agents {\n  }\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n    router = []\n  }\n`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH002@${at(src, 'agents {')}`, `SCH001@${at(src, 'router')}`]);
    expect(r.diagnostics[0]!.hint).toBe('agents is an attribute here: write agents = …');
    expect(r.diagnostics[1]!.hint).toBe('router is a block here: write router { … }');
  });

  test('a missing required attribute is SCH003 at the block header', () => {
    const src = `model "claude" {\n  api_key = "k"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['SCH003@1:1']);
    expect(r.diagnostics[0]!.message).toBe('model "claude" is missing the required attribute "provider"');
    expect(r.diagnostics[0]!.endColumn).toBe(15);
  });

  test('a missing commander block is SCH004 at the mission header', () => {
    const src = `${MODEL}\nmission "m" {\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH004@${at(src, 'mission "m"')}`]);
  });

  test('a second commander is SCH005 at the extra block', () => {
    const src = withMission(`  commander {\n    model = models.claude.claude_haiku_4_5\n  }\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH005@${at(src, 'commander {', 1)}`]);
  });

  test('a block with a missing or extra label is SCH006', () => {
    const src = `model {\n  provider = "openai"\n}\nmodel "a" "b" {\n  provider = "openai"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['SCH006@1:1', `SCH006@${at(src, '"b"')}`]);
  });

  test('a duplicate name is SCH008 at the second declaration, naming the first', () => {
    const src = `${MODEL}model "claude" {\n  provider = "openai"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH008@${at(src, '"claude"', 1)}`]);
    expect(r.diagnostics[0]!.message).toBe('model "claude" is declared twice');
    expect(r.diagnostics[0]!.related).toEqual({ label: 'first at', file: join(r.dir, 'main.hcl'), line: 1, column: 7 });
    expect(messageText(r.diagnostics[0]!, r.dir)).toBe('model "claude" is declared twice (first at main.hcl:1:7)');
  });

  test('duplicate names across files point at both places', () => {
    const src = `toolset "web" {\n  tools = [builtins.http.get]\n}\n`;
    const r = loadFilesPair(src);
    expect(codes(r)).toEqual(['SCH008@1:9']);
    expect(r.diagnostics[0]!.file.endsWith('b.hcl')).toBe(true);
    expect(messageText(r.diagnostics[0]!, r.dir)).toBe('toolset "web" is declared twice (first at a.hcl:1:9)');
  });

  test('a block name outside ^[a-z_][a-z0-9_]*$ is SCH009 at the label, with a fixed suggestion', () => {
    const src = `toolset "Web-Tools" {\n  tools = [builtins.http.get]\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual(['SCH009@1:9']);
    expect(r.diagnostics[0]!.hint).toBe('for example "web_tools"');
  });

  test('an unknown top-level attribute is SCH001', () => {
    const r = loadHcl(`skill_dir = "./skills"\n`);
    expect(codes(r)).toEqual(['SCH001@1:1']);
    expect(r.diagnostics[0]!.hint).toBe('did you mean skills_dir?');
  });
});

describe('value types', () => {
  test('a value of the wrong type is SCH007 at the expression', () => {
    const src = `model "claude" {\n  provider = "anthropic"\n  aliases  = ["x"]\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH007@${at(src, '["x"]')}`]);
  });

  test('a value outside the allowed set is SCH010 with the closest allowed value', () => {
    const src = `model "claude" {\n  provider = "antropic"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH010@${at(src, '"antropic"')}`]);
    expect(r.diagnostics[0]!.hint).toBe('did you mean "anthropic"?');
  });

  test('a count below its minimum or not whole is SCH013', () => {
    const src = withMission(`  max_parallel = 0\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n    max_turns = 2.5\n  }\n`);
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH013@${at(src, '0\n')}`, `SCH013@${at(src, '2.5')}`]);
  });

  test('numbers and booleans given as strings are converted, as HCL does', () => {
    const r = loadHcl(withMission(`  max_parallel = "2"\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n    discovery = "false"\n  }\n`));
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.maxParallel).toBe(2);
    expect(r.graph!.missions[0]!.tasks[0]!.worker!.discovery).toBe('off');
  });
});

function loadFilesPair(src: string) {
  return loadFiles({ 'a.hcl': src, 'b.hcl': src });
}
