// loadConfig as a whole: file discovery, one namespace over many files, every problem from every
// file in one run sorted by file and position, and a deep-frozen graph only when valid.

import { afterAll, expect, test } from 'vitest';
import { deepFreeze, loadConfig } from '../../config/load.js';
import { codes, loadFiles, MODEL, removeTempProjects, tempProject, withMission } from './support.js';

afterAll(removeTempProjects);

const mission = withMission('  task "a" {\n    objective = "x"\n    tools = [toolsets.web]\n  }\n').slice(MODEL.length);

test('a directory loads every .hcl below it (recursively, sorted), skipping dot-folders', () => {
  const r = loadFiles({
    'models.hcl': MODEL,
    'missions/main.hcl': mission,
    'lib/tools.hcl': `toolset "web" {\n  tools = [builtins.http.get]\n}\n`,
    '.hidden/broken.hcl': 'this is not hcl {',
    'notes.txt': 'ignored',
  });
  expect(codes(r)).toEqual([]);
  expect(r.graph!.files).toEqual([`${r.dir}/lib/tools.hcl`, `${r.dir}/missions/main.hcl`, `${r.dir}/models.hcl`]);
  expect(r.graph!.projectRoot).toBe(r.dir);
});

test('a single file path loads only that file, and its directory is the project root', () => {
  const dir = tempProject({ 'one.hcl': `${MODEL}${mission}toolset "web" {\n  tools = [builtins.http.get]\n}\n`, 'other.hcl': 'broken {' });
  const r = loadConfig(`${dir}/one.hcl`, { env: {} });
  expect(codes(r)).toEqual([]);
  expect(r.graph!.projectRoot).toBe(dir);
  expect(r.graph!.files).toEqual([`${dir}/one.hcl`]);
});

test('every problem in every file is reported in one run, sorted by file and position', () => {
  const r = loadFiles({
    'b.hcl': `model "x" {\n  provider = "nope"\n}\ntoolset "t" {\n  tools = ["builtins.http.get"]\n}\n`,
    'a.hcl': `variable "v" {\n  secret  = true\n  default = "x"\n}\nmodel "y" {\n  provider = "openai"\n  bogus = 1\n}\n`,
    'c.hcl': `model "z" {\n  provider = \n}\n`,
  });
  expect(r.diagnostics.map((d) => `${d.file.slice(r.dir.length + 1)}:${d.code}@${d.line}:${d.column}`)).toEqual([
    'a.hcl:SCH015@3:3',
    'a.hcl:SCH001@7:3',
    'b.hcl:SCH010@2:14',
    'b.hcl:REF004@5:12',
    'c.hcl:SYN015@2:14',
  ]);
  expect(r.graph).toBeUndefined();
});

test('a missing path is FIL001; a directory without .hcl files is FIL005', () => {
  expect(codes(loadConfig('/definitely/not/here', { env: {} }))).toEqual(['FIL001@0:0']);
  const empty = tempProject({ 'readme.md': '# nothing' });
  expect(codes(loadConfig(empty, { env: {} }))).toEqual(['FIL005@0:0']);
});

test('the graph is deep-frozen', () => {
  const r = loadFiles({ 'm.hcl': `${MODEL}${mission}toolset "web" {\n  tools = [builtins.http.get]\n}\n` });
  const g = r.graph!;
  expect(Object.isFrozen(g)).toBe(true);
  expect(Object.isFrozen(g.missions[0]!.tasks[0]!.worker!.tools[0])).toBe(true);
  expect(() => {
    (g.missions as unknown as unknown[]).push({});
  }).toThrow(TypeError);
  // Every object reachable from the graph, down to the objective's AST ranges.
  const unfrozen: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v !== 'object' || v === null) return;
    if (!Object.isFrozen(v)) unfrozen.push(path);
    for (const [k, child] of Object.entries(v)) walk(child, `${path}.${k}`);
  };
  walk(g, 'graph');
  expect(unfrozen).toEqual([]);
  expect(Object.isFrozen(g.missions[0]!.tasks[0]!.objective.range.start)).toBe(true);
});

test('deepFreeze freezes shared and nested nodes once and leaves primitives alone', () => {
  const shared = { range: { start: { line: 1 } } };
  const value = { a: [shared, shared], b: { c: shared, d: [[{ e: 1 }]] }, s: 'x', n: null };
  expect(deepFreeze(value)).toBe(value);
  for (const o of [value, value.a, shared, shared.range, shared.range.start, value.b, value.b.d, value.b.d[0], value.b.d[0]![0]]) expect(Object.isFrozen(o)).toBe(true);
  expect(deepFreeze(3)).toBe(3);
  expect(deepFreeze(null)).toBe(null);
});

test('warnings alone keep the graph; a config without missions is a GRA012 warning', () => {
  const r = loadFiles({ 'm.hcl': MODEL });
  expect(codes(r)).toEqual(['w:GRA012@1:1']);
  expect(r.graph).toBeDefined();
});

test('symlinked files and folders are followed, once', async () => {
  const { symlinkSync } = await import('node:fs');
  const dir = tempProject({ 'models.hcl': MODEL, 'shared/tools.hcl': `toolset "web" {\n  tools = [builtins.http.get]\n}\n`, 'project/mission.hcl': mission });
  symlinkSync(`${dir}/shared`, `${dir}/project/lib`);
  symlinkSync(`${dir}/models.hcl`, `${dir}/project/models.hcl`);
  symlinkSync(`${dir}/project`, `${dir}/project/loop`);
  const r = loadConfig(`${dir}/project`, { env: {} });
  expect(codes(r)).toEqual([]);
  expect(r.graph!.files.map((f) => f.slice(dir.length + 1))).toEqual(['project/lib/tools.hcl', 'project/mission.hcl', 'project/models.hcl']);
});
