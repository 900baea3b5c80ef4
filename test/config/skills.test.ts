// Skills: HCL skill blocks (instructions may use load()), SKILL.md folders under skills_dir, one
// shared namespace, and load() errors reported at the argument.

import { afterAll, describe, expect, test } from 'vitest';
import { at, codes, loadFiles, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const skillMd = (name: string, description = 'Does things') => `---\nname: ${name}\ndescription: ${description}\n---\nStep 1. Do the thing.\n`;

describe('skill blocks', () => {
  test('a skill loads instructions from a file next to the declaring file and resolves its tools', () => {
    const src = `toolset "web" {\n  tools = [builtins.http.get]\n}\nskill "research" {\n  description  = "How to research"\n  instructions = load("research.md")\n  tools        = [toolsets.web, builtins.utils.current_time]\n}\n`;
    const r = loadFiles({ 'cfg/skills.hcl': src, 'cfg/research.md': '# Research\nSearch first.\n' });
    const s = r.graph!.skills[0]!;
    expect(s.instructions).toBe('# Research\nSearch first.\n');
    expect(s.tools).toEqual([
      { ref: 'builtins.http.get', via: 'skill:research' },
      { ref: 'builtins.utils.current_time', via: 'skill:research' },
    ]);
    expect(s.origin).toEqual({ kind: 'hcl', file: `${r.dir}/cfg/skills.hcl`, line: 4 });
  });

  test('load() of a missing file is FIL001 at the argument', () => {
    const src = `skill "s" {\n  description  = "d"\n  instructions = load("nope.md")\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`FIL001@${at(src, '"nope.md"')}`]);
  });

  test('load() of another file type is FIL003, an absolute path FIL006, an escape FIL002', () => {
    const src = `skill "a" {\n  description  = "d"\n  instructions = load("x.json")\n}\nskill "b" {\n  description  = "d"\n  instructions = load("/etc/hosts.txt")\n}\nskill "c" {\n  description  = "d"\n  instructions = "\${load("../../outside.md")}"\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`FIL003@${at(src, '"x.json"')}`, `FIL006@${at(src, '"/etc/hosts.txt"')}`, `FIL002@${at(src, '"../../outside.md"')}`]);
  });

  test('description and instructions are required (SCH003)', () => {
    const src = `skill "s" {\n  description = "d"\n}\n`;
    expect(codes(loadHcl(src))).toEqual(['SCH003@1:1']);
  });
});

describe('skill folders', () => {
  test('skills_dir (relative to its file) adds SKILL.md folders; hyphenated names are referenceable', () => {
    const src = `skills_dir = "./skills"\n${withMission('  task "a" {\n    objective = "x"\n    tools  = [builtins.http.get]\n    skills = [skills.pdf-tools]\n  }\n')}`;
    const r = loadFiles({ 'main.hcl': src, 'skills/pdf-tools/SKILL.md': skillMd('pdf-tools') });
    expect(codes(r)).toEqual([]);
    expect(r.graph!.skills.map((s) => [s.name, s.origin.kind])).toEqual([['pdf-tools', 'folder']]);
    expect(r.graph!.missions[0]!.tasks[0]!.worker!.skills).toEqual([{ name: 'pdf-tools', via: 'task' }]);
  });

  test('a list of skills dirs across files; a missing directory is reported at its path', () => {
    const r = loadFiles({
      'a.hcl': `skills_dir = ["./one", "./missing"]\n`,
      'b.hcl': `skills_dir = "./two"\n`,
      'one/alpha/SKILL.md': skillMd('alpha'),
      'two/beta/SKILL.md': skillMd('beta'),
    });
    expect(codes(r)).toEqual(['SKL001@1:24']);
    const ok = loadFiles({ 'a.hcl': `skills_dir = ["./one"]\n`, 'b.hcl': `skills_dir = "./two"\n`, 'one/alpha/SKILL.md': skillMd('alpha'), 'two/beta/SKILL.md': skillMd('beta') });
    expect(ok.graph!.skills.map((s) => s.name)).toEqual(['alpha', 'beta']);
  });

  test('an HCL skill and a folder skill with the same name is SKL040 at the folder skill', () => {
    const r = loadFiles({
      'main.hcl': `skills_dir = "./skills"\nskill "alpha" {\n  description  = "d"\n  instructions = "i"\n}\n`,
      'skills/alpha/SKILL.md': skillMd('alpha'),
    });
    expect(codes(r)).toEqual(['SKL040@1:1']);
    expect(r.diagnostics[0]!.file).toBe(`${r.dir}/skills/alpha/SKILL.md`);
  });
});

describe("a server's prompts as skills", () => {
  const server = `mcp "every" {\n  command = "node"\n}\n`;
  test('skills = [mcp.<server>.prompts, mcp.<server>.prompts.<name>] keep the reference as the name, with its provenance', () => {
    const src = `${server}${withMission('  task "a" {\n    objective = "x"\n    tools  = [builtins.http.get]\n    skills = [mcp.every.prompts, mcp.every.prompts.args-prompt]\n  }\n')}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.tasks[0]!.worker!.skills).toEqual([
      { name: 'mcp.every.prompts', via: 'task' },
      { name: 'mcp.every.prompts.args-prompt', via: 'task' },
    ]);
  });

  test('an unknown server is REF003, another mcp shape REF005', () => {
    const src = `${server}${withMission('  task "a" {\n    objective = "x"\n    tools  = [builtins.http.get]\n    skills = [mcp.evry.prompts, mcp.every.echo]\n  }\n')}`;
    expect(codes(loadHcl(src))).toEqual([`REF003@${at(src, 'mcp.evry.prompts')}`, `REF005@${at(src, 'mcp.every.echo')}`]);
  });
});
