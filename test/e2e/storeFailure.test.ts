// A store error mid-run is a crash, not a task failure. The crash test's mission (a ledger service
// that appends a record per POST, a workspace journal) runs with its SQLite database capped at its
// size at a chosen point (SQLite's max_page_count, set by the fullDiskHook preload: no full disk
// needed), so a later write fails with SQLITE_FULL. The run must stop as interrupted, with its id and
// error_code store_failed and a non-zero exit; `runs` and `inspect` must agree; and a plain `resume`
// (the cap gone with the process) must complete it from the ledger as after SIGKILL: every record
// made once, the journal as in an uninterrupted run.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, type CliResult } from '../support/cli.js';
import { crashScenario, mapPool, startCrashWorld, type CrashWorld, type ScenarioResult } from '../support/crashRun.js';
import { latestRunId, readLedger } from '../support/crashDb.js';
import { FULL_AFTER_ENV } from '../support/fullDiskHook.js';
import { JOURNAL } from '../support/crashMission.js';
import { startPostgres } from '../support/postgres.js';

const FULL_HOOK = join(REPO_ROOT, 'dist', 'test', 'support', 'fullDiskHook.js');

let reference: ScenarioResult;

beforeAll(async () => {
  reference = await crashScenario([]);
}, 300_000);

/** The index (1-based) of the reference run's first event matching `test`. */
function eventIndex(test: (type: string, data: Record<string, unknown>) => boolean): number {
  const index = reference.events.findIndex((e) => test(e.type, e.data));
  if (index < 0) throw new Error('the reference run has no such event');
  return index + 1;
}

interface Filled {
  world: CrashWorld;
  runId: string;
  first: CliResult;
}

/** `squadron run` with the database capped after the k-th event row. */
async function runUntilFull(k: number, json = true): Promise<Filled> {
  const world = await startCrashWorld();
  const env = { [FULL_AFTER_ENV]: `events:${k}`, NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${FULL_HOOK}`.trim() };
  const first = await runCli(['run', world.dir, ...(json ? ['--json'] : []), '--db', world.dbPath, '--workspace', world.workspace], { cwd: world.dir, env, timeoutMs: 120_000 });
  return { world, runId: latestRunId(world.dbPath) ?? '', first };
}

function storedStatuses(dbPath: string, runId: string): { run: string; tasks: Record<string, string> } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const run = (db.prepare('SELECT status FROM runs WHERE id = ?').get(runId) as { status: string }).status;
    const tasks = Object.fromEntries((db.prepare('SELECT name, status FROM tasks WHERE run_id = ?').all(runId) as { name: string; status: string }[]).map((t) => [t.name, t.status]));
    return { run, tasks };
  } finally {
    db.close();
  }
}

async function checkStoppedThenResumed({ world, runId, first }: Filled): Promise<string[]> {
  const problems: string[] = [];
  const say = (what: string, ok: boolean) => void (ok || problems.push(what));
  const doc = JSON.parse(first.stdout) as { run_id?: string; status?: string; error?: string; error_code?: string };
  say(`first run exits 1, not ${first.code} (${first.stderr.slice(-300)})`, first.code === 1);
  say(`the document names the run (${doc.run_id} vs ${runId})`, doc.run_id === runId && runId !== '');
  say(`status interrupted, not ${doc.status}`, doc.status === 'interrupted');
  say(`error_code store_failed, not ${doc.error_code}`, doc.error_code === 'store_failed');
  say(`the error says the database is full: ${doc.error}`, /database or disk is full \(SQLITE_FULL\)/.test(doc.error ?? ''));
  const stored = storedStatuses(world.dbPath, runId);
  say(`no task recorded as failed by the database: ${JSON.stringify(stored.tasks)}`, !Object.values(stored.tasks).includes('failed'));
  const runs = await runCli(['runs', '--json', '--db', world.dbPath], { cwd: world.dir });
  const listed = (JSON.parse(runs.stdout) as { runs: { id: string; status: string }[] }).runs.find((r) => r.id === runId);
  say(`runs shows interrupted, not ${listed?.status}`, listed?.status === 'interrupted');
  const inspect = await runCli(['inspect', runId, '--json', '--db', world.dbPath], { cwd: world.dir });
  say(`inspect shows interrupted, not ${inspect.stdout.slice(0, 200)}`, (JSON.parse(inspect.stdout) as { run: { status: string } }).run.status === 'interrupted');
  const resumed = await runCli(['resume', runId, '--json', '--db', world.dbPath], { cwd: world.dir, timeoutMs: 120_000 });
  say(`plain resume completes (code ${resumed.code}): ${resumed.stderr.slice(-300)}`, resumed.code === 0 && (JSON.parse(resumed.stdout) as { status: string }).status === 'completed');
  const records = world.sink.records.map((r) => `${r.item}#${r.attempt}`);
  say(`each non-idempotent POST made once: ${records.join(', ')}`, records.filter((r) => r.startsWith('alpha')).length === 1 && records.filter((r) => r.startsWith('gamma')).length === 1);
  say('the journal has each entry once', readFileSync(join(world.workspace, JOURNAL), 'utf8').split('\n').filter(Boolean).length === 2);
  const ledger = readLedger(world.dbPath, runId);
  say('every tool call of the ledger completed', ledger.length > 0 && ledger.every((e) => e.status === 'completed'));
  return problems;
}

describe('a database that fills up mid-run (SQLITE_FULL)', () => {
  it('stops the run as interrupted, and plain resume completes it with every side effect once', async () => {
    const isRecord = (type: string, data: Record<string, unknown>, task: string) => type.startsWith('tool.') && data['tool'] === 'tools.record' && data['task'] === task;
    const points = [
      eventIndex((type, data) => type === 'tool.started' && isRecord(type, data, 'alpha')),
      eventIndex((type, data) => type === 'tool.finished' && isRecord(type, data, 'alpha')),
      eventIndex((type, data) => type === 'tool.started' && data['tool'] === 'builtins.files.write'),
      eventIndex((type, data) => type === 'tool.started' && isRecord(type, data, 'gamma')),
      eventIndex((type, data) => type === 'task.completed' && data['task'] === 'gamma'),
    ];
    const problems = await mapPool(points, 3, async (k) => {
      const filled = await runUntilFull(k);
      try {
        return (await checkStoppedThenResumed(filled)).map((p) => `[full after event ${k}] ${p}`);
      } finally {
        await filled.world.close();
      }
    });
    expect(problems.flat()).toEqual([]);
  }, 600_000);

  it('says which run stopped and how to resume it, in human output', async () => {
    const { world, runId, first } = await runUntilFull(eventIndex((type) => type === 'task.completed'), false);
    try {
      expect(first.code).toBe(1);
      expect(first.stdout).toContain(`mission crashproof interrupted`);
      expect(first.stdout).toMatch(/error: the database failed: database or disk is full \(SQLITE_FULL\)/);
      expect(first.stdout).toContain(`resume with: squadron resume ${runId}`);
      expect(first.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await world.close();
    }
  }, 300_000);
});

describe('a PostgreSQL connection lost mid-run (the backend terminated)', () => {
  it('stops the run as interrupted, and plain resume completes it with every side effect once', async () => {
    const server = await startPostgres();
    const world = await startCrashWorld();
    try {
      const url = await server.createDatabase();
      // The schema first (any command that opens the database migrates it), then a trigger that
      // terminates the backend writing the run's k-th event: the connection dies under that INSERT.
      const k = eventIndex((type, data) => type === 'tool.finished' && data['tool'] === 'tools.record' && data['task'] === 'alpha');
      expect((await runCli(['runs', '--db', url], { cwd: world.dir })).code).toBe(0);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`
          CREATE FUNCTION test_cut_connection() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF (SELECT count(*) FROM events WHERE run_id = NEW.run_id) >= ${k} THEN
              PERFORM pg_terminate_backend(pg_backend_pid());
            END IF;
            RETURN NEW;
          END $$;
          CREATE TRIGGER test_cut_connection AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_cut_connection();`);
        const first = await runCli(['run', world.dir, '--json', '--db', url, '--workspace', world.workspace], { cwd: world.dir, timeoutMs: 120_000 });
        const doc = JSON.parse(first.stdout) as { run_id: string; status: string; error: string; error_code: string };
        expect({ code: first.code, status: doc.status, error_code: doc.error_code }, first.stderr).toEqual({ code: 1, status: 'interrupted', error_code: 'store_failed' });
        expect(doc.error).toMatch(/terminating connection|Connection terminated/);
        const runId = doc.run_id;
        expect((await admin.query('SELECT status FROM tasks WHERE run_id = $1 AND status = $2', [runId, 'failed'])).rowCount).toBe(0);
        // The cause gone.
        await admin.query('DROP TRIGGER test_cut_connection ON events');
        const runs = await runCli(['runs', '--json', '--db', url], { cwd: world.dir });
        expect((JSON.parse(runs.stdout) as { runs: { id: string; status: string }[] }).runs.find((r) => r.id === runId)?.status).toBe('interrupted');
        const inspect = await runCli(['inspect', runId, '--json', '--db', url], { cwd: world.dir });
        expect((JSON.parse(inspect.stdout) as { run: { status: string } }).run.status).toBe('interrupted');
        const resumed = await runCli(['resume', runId, '--json', '--db', url], { cwd: world.dir, timeoutMs: 120_000 });
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(world.sink.records.map((r) => `${r.item}#${r.attempt}`)).toEqual(['alpha#1', 'gamma#1']);
        expect(readFileSync(join(world.workspace, JOURNAL), 'utf8')).toBe(reference.journal);
      } finally {
        await admin.end();
      }
    } finally {
      await world.close();
      await server.stop();
    }
  }, 600_000);
});
