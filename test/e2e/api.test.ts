// The programmatic API as a user meets it: a package named `squadron` in node_modules, imported by
// name from a script in another folder (the package's `exports`, not our source paths), running the
// offline quickstart with its event stream, planning, validating, and refusing with typed errors.

import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../support/cli.js';

/** A user's project: the package installed (linked) in node_modules, the quickstart copied beside it. */
function userProject(): string {
  const dir = tempDir('squadron-api-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'squadron-agents'), 'dir');
  cpSync(join(REPO_ROOT, 'examples', 'quickstart'), join(dir, 'quickstart'), { recursive: true, filter: (src) => !src.endsWith('/.squadron') });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  return dir;
}

function node(dir: string, script: string): { status: number | null; stdout: string; stderr: string } {
  writeFileSync(join(dir, 'script.mjs'), script);
  const r = spawnSync(process.execPath, ['script.mjs'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('import … from "squadron-agents"', () => {
  it('runs a mission with its event stream, then plans and validates it', () => {
    const dir = userProject();
    const r = node(
      dir,
      `import { run, plan, validate } from 'squadron-agents';
const events = [];
let announced;
const report = await run({ config: 'quickstart', inputs: { topic: 'tide pools' }, onRunId: (id) => (announced = id), onEvent: (e) => events.push(e.type) });
const p = await plan({ config: 'quickstart' });
const v = await validate('quickstart');
console.log(JSON.stringify({ status: report.status, same: announced === report.runId, tasks: Object.keys(report.tasks), output: report.tasks.review.output, first: events[0], last: events.at(-1), turns: events.filter((t) => t === 'model.turn').length, planned: p.tasks.map((t) => t.name), valid: v.graph !== undefined }));
`,
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ status: 'completed', same: true, tasks: ['research', 'review'], first: 'run.started', last: 'run.finished', planned: ['research', 'review'], valid: true });
    expect(out['output']).toEqual({ fact_count: 3, headline: 'Tide pools: tough little worlds between the tides' });
    expect(out['turns']).toBeGreaterThan(2);
  });

  it('throws SquadronError with a code, and every diagnostic for an invalid config', () => {
    const dir = userProject();
    writeFileSync(join(dir, 'bad.hcl'), 'mission "m" {\n  commander {}\n}\n');
    const r = node(
      dir,
      `import { run, SquadronError } from 'squadron-agents';
const codes = [];
for (const req of [{ config: 'bad.hcl' }, { config: 'quickstart', mission: 'nope' }, { config: 'quickstart', inputs: { colour: 'red' } }]) {
  try { await run(req); codes.push('no error'); } catch (e) { codes.push(e instanceof SquadronError ? [e.code, e.diagnostics.map((d) => d.code)] : String(e)); }
}
console.log(JSON.stringify(codes));
`,
    );
    expect(r.stderr).toBe('');
    const codes = JSON.parse(r.stdout) as [string, string[]][];
    expect(codes[0]![0]).toBe('invalid_config');
    expect(codes[0]![1].length).toBeGreaterThan(0);
    expect(codes.slice(1)).toEqual([
      ['not_found', []],
      ['usage', []],
    ]);
  });

  it('is typed: a TypeScript user compiles against its declarations, and a wrong field is a type error', () => {
    const dir = userProject();
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['use.ts'] }));
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const compile = (source: string) => {
      writeFileSync(join(dir, 'use.ts'), source);
      return spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    };
    const good = compile(`import { run, type RunEvent, type RunReport } from 'squadron-agents';
const seen: RunEvent['type'][] = [];
export const done: Promise<RunReport> = run({ config: 'quickstart', inputs: { topic: 'x' }, onEvent: (e) => seen.push(e.type) });
`);
    expect(good.stdout + good.stderr).toBe('');
    expect(good.status).toBe(0);
    const bad = compile(`import { run } from 'squadron-agents';
export const done = run({ config: 'quickstart', inputs: { topic: 42 } });
`);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain("Type 'number' is not assignable to type 'string'");
  });
});
