// Mistakes a user can make on the command line: each gets one clear line and the documented exit code,
// never a stack trace or the internal-error hint.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { removeProjects, writeProject } from '../support/e2eProject.js';

afterAll(removeProjects);

const VALID = `model "offline" {
  provider = "replay"
  cassette = "./c.jsonl"
}
mission "m" {
  commander { model = models.offline.claude_haiku_4_5 }
  task "t" {
    objective = "t"
    tools     = [builtins.utils.current_time]
  }
}
`;

function expectUsageError(result: { code: number | null; stderr: string }, message: string | RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toContain('--debug');
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('usage errors exit 2 with one clear line', () => {
  it('no command at all shows the help and exits 2', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr + result.stdout).toContain('Usage: squadron');
  });

  it('refuses contradictory flags on run before doing anything', async () => {
    const dir = writeProject({ 'mission.hcl': VALID });
    expectUsageError(await runCli(['run', dir, '--replay', 'a.jsonl', '--record', 'b.jsonl'], { cwd: dir }), '--replay and --record cannot be used together');
    expectUsageError(await runCli(['run', dir, '--tool', 'builtins.utils.current_time', '--no-tools'], { cwd: dir }), '--tool and --no-tools cannot be used together');
    expectUsageError(await runCli(['run', dir, '--skill', 'x', '--no-skills'], { cwd: dir }), '--skill and --no-skills cannot be used together');
  });

  it('reports an invalid config to run, plan and tools with its diagnostics', async () => {
    const dir = writeProject({ 'mission.hcl': VALID.replace('objective = "t"', 'objectiv = "t"') });
    for (const command of ['run', 'plan', 'tools']) {
      const result = await runCli([command, dir], { cwd: dir });
      expectUsageError(result, /mission\.hcl:8:5: error\[SCH\d+\]/);
      expect(result.stderr).toContain('did you mean');
    }
  });

  it('checks --limit and --page as whole numbers', async () => {
    const dir = writeProject({ 'mission.hcl': VALID });
    expectUsageError(await runCli(['runs', '--limit', 'abc'], { cwd: dir }), '--limit expects a whole number ≥ 1, got "abc"');
    expectUsageError(await runCli(['tools', dir, '--search', 'time', '--page', '0'], { cwd: dir }), '--page expects a whole number ≥ 1, got "0"');
  });

  it('says plainly when --db is not a database, or there is none', async () => {
    const dir = writeProject({ 'mission.hcl': VALID });
    writeFileSync(join(dir, 'notes.db'), 'these are my notes, not a database\n'.repeat(200));
    for (const args of [['runs'], ['inspect', 'run_x'], ['resume', 'run_x']]) {
      expectUsageError(await runCli([...args, '--db', 'notes.db'], { cwd: dir }), /notes\.db is not a Squadron database: it is not a SQLite file; nothing was changed/);
      expectUsageError(await runCli(args, { cwd: dir }), 'no database in this folder (.squadron/squadron.db) or in the folders below it');
    }
  });
});

describe('squadron --version', () => {
  it("prints package.json's version", async () => {
    const { readFileSync } = await import('node:fs');
    const { REPO_ROOT } = await import('../support/cli.js');
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });
});

describe('squadron docs', () => {
  it('treats a blank topic as the index and a group name as that group', async () => {
    const blank = await runCli(['docs', '']);
    expect(blank.code).toBe(0);
    expect(blank.stdout).toContain('Documentation topics');
    const group = await runCli(['docs', 'blocks']);
    expect(group.code).toBe(0);
    expect(group.stdout).toContain('Blocks:');
    expect(group.stdout).not.toContain('Commands:');
  });
});
