// What `squadron resume` loads and opens before it continues a run (issue 12: resume is where a person
// waits). A provider's SDK is loaded only when a model request is about to be sent, so a resume that
// sends none never reads it; the database is opened once, by resume itself, with the words of every
// other command when it does not hold the run, and a note when it had to be upgraded.

import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, type CliResult } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, openRunDb, removeProjects, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, withFakeModelServer } from '../support/fakeModelServer.js';
import { taskComplete } from '../support/turnScript.js';

/** The number of the newest SQLite migration in the repository. */
const latestMigration = Math.max(...readdirSync(new URL('../../migrations/sqlite/', import.meta.url)).map((f) => Number.parseInt(f, 10)).filter(Number.isFinite));

afterAll(removeProjects);

function project(server: FakeModelServer): string {
  return writeProject({
    'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "one" {
    objective = "Say one."
    tools     = [builtins.utils.current_time]
  }
}
`,
  });
}

/**
 * A preload that records what the process loads: every ES module URL (a module hook) and, at exit,
 * every CommonJS file and how many SQLite connections were opened (read-only ones counted apart).
 * It observes only; better-sqlite3's constructor is wrapped to count, and still does the opening.
 */
function writePreload(dir: string): string {
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(hooks, "import { appendFileSync } from 'node:fs';\nlet file;\nexport function initialize(data) { file = data.file; }\nexport async function load(url, context, next) { appendFileSync(file, url + '\\n'); return next(url, context); }\n");
  const preload = join(dir, 'preload.mjs');
  writeFileSync(
    preload,
    [
      "import { register, createRequire } from 'node:module';",
      `register(${JSON.stringify(`file://${hooks}`)}, { data: { file: process.env.SQUADRON_TEST_MODULE_LOG } });`,
      `const require = createRequire(${JSON.stringify(CLI)});`,
      "const path = require.resolve('better-sqlite3');",
      'const Database = require(path);',
      'const opened = { write: 0, read: 0 };',
      'function Counted(filename, options) { opened[options?.readonly ? "read" : "write"] += 1; return new Database(filename, options); }',
      'Object.setPrototypeOf(Counted, Database); Counted.prototype = Database.prototype;',
      'require.cache[path].exports = Counted;',
      "process.on('exit', () => process.stderr.write('\\n@@LOADED ' + JSON.stringify({ cjs: Object.keys(require.cache), opened }) + '\\n'));",
    ].join('\n'),
  );
  return preload;
}

interface Observed {
  result: CliResult;
  /** The modules the process loaded: files, and the modules bundled into each chunk it read. */
  modules: string[];
  opened: { write: number; read: number };
}

async function observedResume(dir: string, runId: string): Promise<Observed> {
  const probe = join(dir, 'probe');
  mkdirSync(probe, { recursive: true });
  const log = join(probe, 'modules.txt');
  writeFileSync(log, '');
  const preload = writePreload(probe);
  const result = await runCli(['resume', runId], { cwd: dir, env: { NODE_OPTIONS: `--import ${preload}`, SQUADRON_TEST_MODULE_LOG: log }, timeoutMs: 120_000 });
  const line = result.stderr.split('\n').find((l) => l.startsWith('@@LOADED '));
  if (line === undefined) throw new Error(`no module list (exit ${result.code}):\n${result.stderr}`);
  const { cjs, opened } = JSON.parse(line.slice('@@LOADED '.length)) as { cjs: string[]; opened: { write: number; read: number } };
  const bundled = JSON.parse(readFileSync(join(dirname(CLI), 'chunks', 'modules.json'), 'utf8')) as Record<string, string[]>;
  const files = [...readFileSync(log, 'utf8').split('\n').filter((u) => u !== ''), ...cjs].map((u) => u.replace(/^file:\/\//, ''));
  const modules = files.flatMap((f) => [f, ...(bundled[/dist\/cli\/(chunks\/.*)$/.exec(f)?.[1] ?? ''] ?? [])]);
  return { result: { ...result, stderr: result.stderr.replace(/\n@@LOADED .*\n/, '') }, modules, opened };
}

const sdkIn = (modules: string[]): string[] => modules.filter((m) => /\/node_modules\/(@anthropic-ai\/sdk|openai)\//.test(m));

/** A finished run as a killed one leaves it: every task completed, the run itself still running. */
async function finishedButRunning(server: FakeModelServer): Promise<{ dir: string; runId: string }> {
  const dir = project(server);
  const run = await runCli(['run', '.'], { cwd: dir, timeoutMs: 120_000 });
  expect(run.code, run.stderr).toBe(0);
  const db = new Database(join(dir, '.squadron', 'squadron.db'));
  const runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
  db.prepare("UPDATE runs SET status = 'running', finished_at = NULL").run();
  db.close();
  return { dir, runId };
}

describe('squadron resume before it continues', () => {
  it('loads no model SDK when it sends no model request, and loads it when it does', async () => {
    await withFakeModelServer(() => taskComplete('one said'), async (server) => {
      const { dir, runId } = await finishedButRunning(server);
      const sent = server.requests.length;
      const quiet = await observedResume(dir, runId);
      expect(quiet.result.code, quiet.result.stderr).toBe(0);
      expect(server.requests.length).toBe(sent);
      expect(sdkIn(quiet.modules)).toEqual([]);
      // The same check sees an SDK that is loaded: a resume that must ask the model, of a run killed
      // as its first request arrived.
      let child: ChildProcess | undefined;
      const dir2 = project(server);
      const at = server.requests.length + 1;
      server.onRequest = (n) => {
        if (n === at) child?.kill('SIGKILL');
      };
      const killed = await runCli(['run', '.'], { cwd: dir2, onSpawn: (c) => (child = c), timeoutMs: 120_000 });
      server.onRequest = undefined;
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const killedId = /^run (run_\w+)$/m.exec(killed.stdout)?.[1];
      expect(killedId, killed.stdout).toBeDefined();
      const before = server.requests.length;
      const asking = await observedResume(dir2, killedId!);
      expect(asking.result.code, asking.result.stderr).toBe(0);
      expect(server.requests.length).toBeGreaterThan(before);
      expect(sdkIn(asking.modules)).not.toEqual([]);
    });
  }, 240_000);

  it('opens the database once, for writing, and opens no read-only connection first', async () => {
    await withFakeModelServer(() => taskComplete('one said'), async (server) => {
      const { dir, runId } = await finishedButRunning(server);
      const { result, opened } = await observedResume(dir, runId);
      expect(result.code, result.stderr).toBe(0);
      // The store's open: one connection that recognises the file (read-only, on a file nothing
      // holds open) and the one resume writes through.
      expect(opened).toEqual({ write: 1, read: 1 });
    });
  }, 240_000);

  it('says a run is not in the database in the words of inspect, naming the file as typed', async () => {
    await withFakeModelServer(() => taskComplete('one said'), async (server) => {
      const { dir } = await finishedButRunning(server);
      const resumed = await runCli(['resume', 'run_nope', '--db', '.squadron/squadron.db'], { cwd: dir });
      const inspected = await runCli(['inspect', 'run_nope', '--db', '.squadron/squadron.db'], { cwd: dir });
      expect(resumed.code).toBe(inspected.code);
      expect(resumed.stderr).toBe(inspected.stderr);
      expect(resumed.stderr).toContain('no run run_nope in .squadron/squadron.db (see squadron runs)');
      expect(resumed.stdout).toBe('');
    });
  }, 240_000);

  it('upgrades a database from before message sizes (0014) and resumes it with its rows unsized', async () => {
    await withFakeModelServer(() => taskComplete('one said'), async (server) => {
      const { dir, runId } = await finishedButRunning(server);
      // What a squadron before migration 0014 left: no parts_bytes column, heads index without it.
      await resumeUpgraded(dir, runId, '0014_message_parts_bytes.sql', `DROP INDEX messages_heads; ALTER TABLE messages DROP COLUMN parts_bytes;
        CREATE INDEX messages_heads ON messages (session_id, seq, role, turn, kind, call_id);
        DELETE FROM schema_migrations WHERE version = 14`);
      const after = openRunDb(dir);
      const sizes = after.prepare('SELECT parts_bytes FROM messages ORDER BY id').pluck().all();
      after.close();
      // Rows stored before keep no size: a resume that sizes them reads their rows.
      expect(sizes.length).toBeGreaterThan(0);
      expect(sizes.every((size) => size === null)).toBe(true);
    });
  }, 240_000);

  it('upgrades a database of an older schema as it opens it, and says so', async () => {
    await withFakeModelServer(() => taskComplete('one said'), async (server) => {
      const { dir, runId } = await finishedButRunning(server);
      // What a squadron before migration 0013 left: no budget reservations table, 0013 not applied.
      await resumeUpgraded(dir, runId, '0013_budget_reservations.sql', 'DROP TABLE budget_reservations; DELETE FROM schema_migrations WHERE version = 13');
      const after = openRunDb(dir);
      const versions = after.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
      after.close();
      expect(versions).toContain(13);
      expect(versions.at(-1)).toBe(latestMigration);
    });
  }, 240_000);
});

/**
 * Takes the run's database back to an older schema with `sql`, resumes the run, and checks that the
 * resume succeeded and said it applied exactly `migration`.
 */
async function resumeUpgraded(dir: string, runId: string, migration: string, sql: string): Promise<void> {
  const path = join(dir, '.squadron', 'squadron.db');
  const db = new Database(path);
  db.exec(sql);
  db.close();
  const resumed = await runCli(['resume', runId], { cwd: dir });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toContain(`note: upgraded the database ${path} to the current schema (applied ${migration})\n`);
}
