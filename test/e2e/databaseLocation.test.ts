// One rule for where the database is, used by every command: the README's sequence (`squadron run
// examples/quickstart`, then `squadron runs` and `squadron inspect` from the repository root) works,
// and the commands printed after a run work, as printed, from where the user stands.

import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT, runCli, tempDir, type CliResult } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { taskComplete, turnScript } from '../support/turnScript.js';

const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A repository-like folder: examples/<name>/ holding a copy of the offline quickstart each. */
function repoWith(...examples: string[]): string {
  const repo = tempDir('squadron-repo-');
  made.push(repo);
  for (const name of examples) {
    const dir = join(repo, 'examples', name);
    mkdirSync(dir, { recursive: true });
    for (const f of ['mission.hcl', 'cassette.jsonl']) copyFileSync(join(REPO_ROOT, 'examples', 'quickstart', f), join(dir, f));
  }
  return repo;
}

function printed(result: CliResult, label: 'inspect with' | 'resume with'): string {
  const line = result.stdout.split('\n').find((l) => l.startsWith(`${label}: `));
  expect(line, `"${label}" in:\n${result.stdout}`).toBeDefined();
  return line!.slice(label.length + 2);
}

/**
 * Runs a printed `squadron …` command line through a shell, exactly as a user would paste it (async:
 * the fake model server in this process must keep answering meanwhile).
 */
function paste(commandLine: string, cwd: string): Promise<CliResult> {
  expect(commandLine).toMatch(/^squadron /);
  return new Promise((resolve, reject) => {
    const shell = spawn('/bin/sh', ['-c', `squadron() { "${process.execPath}" "${CLI}" "$@"; }; ${commandLine}`], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    shell.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    shell.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    shell.on('error', reject);
    shell.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const runIdOf = (result: CliResult): string => /^run (run_\w+)$/m.exec(result.stdout)![1]!;

describe('where the database is', () => {
  it("the README's sequence works from the repository root: run examples/quickstart, then runs and inspect", async () => {
    const repo = repoWith('quickstart');
    const run = await runCli(['run', 'examples/quickstart'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    const runId = runIdOf(run);
    // The database is the config's; from the root the read commands find it without --db.
    expect(printed(run, 'inspect with')).toBe(`squadron inspect ${runId}`);

    const runs = await runCli(['runs'], { cwd: repo });
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stderr).toBe('note: reading runs from examples/quickstart/.squadron/squadron.db\n');
    expect(runs.stdout).toMatch(new RegExp(`^${runId}\\s+quickstart\\s+completed`, 'm'));

    const inspected = await paste(printed(run, 'inspect with'), repo);
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(inspected.stdout).toContain(`run ${runId} · mission quickstart · completed`);

    // resume finds it by the same rule (a completed run just reports again).
    const resumed = await runCli(['resume', runId, '--json'], { cwd: repo });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as { run_id: string; status: string }).status).toBe('completed');
  }, 120_000);

  it('lists the runs of every config folder below, newest first, and inspects each by its id', async () => {
    const repo = repoWith('alpha', 'beta');
    const first = await runCli(['run', 'examples/alpha'], { cwd: repo });
    const second = await runCli(['run', 'examples/beta'], { cwd: repo });
    expect([first.code, second.code], first.stderr + second.stderr).toEqual([0, 0]);
    const runs = await runCli(['runs', '--json'], { cwd: repo });
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stderr).toBe('note: reading runs from examples/alpha/.squadron/squadron.db, examples/beta/.squadron/squadron.db\n');
    const listed = (JSON.parse(runs.stdout) as { runs: { id: string; db: string }[] }).runs;
    expect(listed.map((r) => [r.id, r.db])).toEqual([
      [runIdOf(second), 'examples/beta/.squadron/squadron.db'],
      [runIdOf(first), 'examples/alpha/.squadron/squadron.db'],
    ]);
    for (const result of [first, second]) {
      const inspected = await runCli(['inspect', runIdOf(result)], { cwd: repo });
      expect(inspected.code, inspected.stderr).toBe(0);
    }
    // A database in the current folder comes first: then only it is read.
    const here = await runCli(['run', 'examples/alpha', '--db', '.squadron/squadron.db'], { cwd: repo });
    expect(here.code, here.stderr).toBe(0);
    const nearest = await runCli(['runs', '--json'], { cwd: repo });
    expect([nearest.stderr, (JSON.parse(nearest.stdout) as { runs: { id: string }[] }).runs.map((r) => r.id)]).toEqual(['', [runIdOf(here)]]);
    expect((await paste(`squadron inspect ${runIdOf(second)}`, repo)).stderr).toContain(`no run ${runIdOf(second)} in .squadron/squadron.db`);
    // …so a command printed after a run below now names its database, and works as printed.
    const third = await runCli(['run', 'examples/beta'], { cwd: repo });
    expect(third.code, third.stderr).toBe(0);
    expect(printed(third, 'inspect with')).toBe(`squadron inspect ${runIdOf(third)} --db examples/beta/.squadron/squadron.db`);
    expect((await paste(printed(third, 'inspect with'), repo)).code).toBe(0);
  }, 180_000);

  it('prints inspect and resume commands that work from another folder, with --db (quoted) when needed', async () => {
    let firstRequest = true;
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    let child: ChildProcess | undefined;
    const script = turnScript({ 'commander of task "only"': [taskComplete('done')] });
    const server = await startFakeModelServer({
      respond: async (req) => {
        if (firstRequest) {
          // The first model call never gets an answer: the user presses Ctrl-C while it is in flight.
          firstRequest = false;
          child?.kill('SIGINT');
          await held;
        }
        return script.respond(req);
      },
    });
    try {
      const project = tempDir('squadron project ');
      made.push(project);
      writeFileSync(join(project, 'mission.hcl'), `${fakeModelBlock(server)}mission "m" {\n  commander { model = ${ANTHROPIC_MODEL} }\n  task "only" {\n    objective = "finish"\n    tools     = [builtins.utils.current_time]\n  }\n}\n`);
      const elsewhere = tempDir('squadron-elsewhere-');
      made.push(elsewhere);
      const run = await runCli(['run', project], { cwd: elsewhere, onSpawn: (c) => (child = c) });
      expect(run.code, run.stderr).toBe(130);
      const runId = runIdOf(run);
      const db = join(project, '.squadron', 'squadron.db');
      expect(printed(run, 'inspect with')).toBe(`squadron inspect ${runId} --db '${db}'`);
      expect(printed(run, 'resume with')).toBe(`squadron resume ${runId} --db '${db}'`);
      const inspected = await paste(printed(run, 'inspect with'), elsewhere);
      expect(inspected.code, inspected.stderr).toBe(0);
      expect(inspected.stdout).toContain(`run ${runId} · mission m · interrupted`);
      const resumed = await paste(printed(run, 'resume with'), elsewhere);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain('mission m completed');
    } finally {
      releaseHeld();
      await server.close();
    }
  }, 120_000);

  it('SQUADRON_DB chooses the database for every command, and printed commands rely on it', async () => {
    const repo = repoWith('quickstart');
    const env = { SQUADRON_DB: join(repo, 'shared runs.db') };
    const run = await runCli(['run', 'examples/quickstart'], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    const runId = runIdOf(run);
    expect(printed(run, 'inspect with')).toBe(`squadron inspect ${runId}`);
    const runs = await runCli(['runs', '--json'], { cwd: join(repo, 'examples'), env });
    expect((JSON.parse(runs.stdout) as { runs: { id: string }[] }).runs.map((r) => r.id)).toEqual([runId]);
    // Without the variable, the printed command names the file, quoted for the shell.
    expect((await paste(`squadron runs --db '${env.SQUADRON_DB}'`, repo)).stdout).toContain(runId);
    const withoutEnv = await runCli(['runs'], { cwd: repo });
    expect(withoutEnv.code).toBe(2);
  }, 120_000);

  it('read commands started from / do not walk into /proc or stop on what they may not read', async () => {
    const runs = await runCli(['runs', '--json'], { cwd: '/' });
    expect(runs.stderr).not.toMatch(/EACCES|\/proc\//);
    expect((JSON.parse(runs.stdout) as { error_code?: string }).error_code, runs.stdout).not.toBe('internal');
    for (const args of [['runs'], ['deny', 'run_none', '--reason', 'no'], ['inspect', 'run_none']]) {
      const result = await runCli(args, { cwd: '/' });
      expect(result.stderr, args.join(' ')).not.toMatch(/EACCES|\/proc\/|internal/);
      expect(result.code, result.stderr).not.toBe(1);
    }
  }, 120_000);

  it('found below a folder holding many databases, reads the 16 most recently written and says how many it left', async () => {
    const repo = repoWith('quickstart');
    const run = await runCli(['run', 'examples/quickstart', '--db', join(repo, 'seed.db')], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    // 20 projects, each with a copy of the database; project p00 was written last, p19 first.
    const now = Date.now() / 1000;
    for (let i = 0; i < 20; i++) {
      const dir = join(repo, 'projects', `p${String(i).padStart(2, '0')}`, '.squadron');
      mkdirSync(dir, { recursive: true });
      copyFileSync(join(repo, 'seed.db'), join(dir, 'squadron.db'));
      utimesSync(join(dir, 'squadron.db'), now - 3600 * (i + 1), now - 3600 * (i + 1));
    }
    const runs = await runCli(['runs', '--json'], { cwd: join(repo, 'projects') });
    expect(runs.code, runs.stderr).toBe(0);
    const dbs = (JSON.parse(runs.stdout) as { runs: { db: string }[] }).runs.map((r) => r.db).sort();
    expect(dbs).toEqual(Array.from({ length: 16 }, (_, i) => `p${String(i).padStart(2, '0')}/.squadron/squadron.db`));
    expect(runs.stderr).toContain('(the 16 most recently written of 20 databases below this folder; pass --db to read another)');
    const missing = await runCli(['inspect', 'run_none'], { cwd: join(repo, 'projects') });
    expect(missing.stderr).toContain('no run run_none in p00/.squadron/squadron.db');
    expect(missing.stderr).toContain('of 20 databases below this folder');
  }, 120_000);

  it('skips a folder it may not read without a word, and still finds the databases beside it', async () => {
    const repo = repoWith('quickstart');
    const run = await runCli(['run', 'examples/quickstart'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    const locked = join(repo, 'locked');
    mkdirSync(join(locked, 'inner'), { recursive: true });
    const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    chmodSync(repo, 0o755);
    for (const dir of ['examples', 'examples/quickstart', 'examples/quickstart/.squadron']) chmodSync(join(repo, dir), 0o777);
    for (const f of readdirSync(join(repo, 'examples/quickstart/.squadron'))) chmodSync(join(repo, 'examples/quickstart/.squadron', f), 0o666);
    chmodSync(locked, 0o000);
    try {
      const runs = await runCli(['runs'], { cwd: repo, ...asOther });
      expect(runs.code, runs.stderr).toBe(0);
      expect(runs.stdout).toContain(runIdOf(run));
      expect(runs.stderr).not.toMatch(/locked|EACCES|warning/);
    } finally {
      chmodSync(locked, 0o755);
    }
  }, 120_000);

  it('runs prune deletes finished runs older than the cutoff with their default workspaces, keeps the newest with --keep, and --dry-run deletes nothing', async () => {
    const repo = repoWith('quickstart');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await runCli(['run', 'examples/quickstart'], { cwd: repo });
      expect(run.code, run.stderr).toBe(0);
      ids.push(runIdOf(run));
    }
    const workspaces = join(repo, 'examples', 'quickstart', '.squadron', 'workspaces');
    mkdirSync(join(workspaces, 'run_orphan1'), { recursive: true });
    const dry = await runCli(['runs', 'prune', '--older-than', '0m', '--keep', '1', '--dry-run', '--json'], { cwd: repo });
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { runs: { id: string; workspace: string }[]; orphan_workspaces: string[] };
    expect(plan.runs.map((r) => r.id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(plan.orphan_workspaces).toEqual(['examples/quickstart/.squadron/workspaces/run_orphan1']);
    expect((JSON.parse((await runCli(['runs', '--json'], { cwd: repo })).stdout) as { runs: unknown[] }).runs).toHaveLength(3);
    const done = await runCli(['runs', 'prune', '--older-than', '0m', '--keep', '1'], { cwd: repo });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('pruned 2 runs finished more than 0m ago and 1 workspace without a run');
    const left = JSON.parse((await runCli(['runs', '--json'], { cwd: repo })).stdout) as { runs: { id: string }[] };
    expect(left.runs.map((r) => r.id)).toEqual([ids[2]]);
    expect(readdirSync(workspaces)).toEqual([ids[2]]);
    // A recent run is kept by the default age (30 days); a bad age is a usage error.
    expect((await runCli(['runs', 'prune'], { cwd: repo })).stdout).toContain('pruned 0 runs');
    expect((await runCli(['runs', 'prune', '--older-than', 'soon'], { cwd: repo })).code).toBe(2);
  }, 180_000);
});
