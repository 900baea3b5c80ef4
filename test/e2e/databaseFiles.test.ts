// What the CLI does to the file --db names: a file that is not a Squadron database is refused by
// every command and left byte-for-byte and mode-for-mode as it was; a read-only database can still be
// listed and inspected; an existing database is never chmodded; folders Squadron creates are 0700
// under any umask. Databases come from real runs of the offline quickstart.

import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir, type CliOptions } from '../support/cli.js';

/** Every migration the packaged store applies, as the upgrade notes list them. */
const MIGRATIONS = readdirSync(join(REPO_ROOT, 'migrations', 'sqlite')).filter((f) => f.endsWith('.sql')).sort().join(', ');

const IS_ROOT = process.getuid?.() === 0;
/** As root, read-only files are only read-only for another user: run the CLI as nobody then. */
const AS_OTHER_USER: CliOptions = IS_ROOT ? { uid: 65534, gid: 65534 } : {};

let root = '';
let project = '';
let runId = '';

/** A copy of examples/quickstart (offline: replays its cassette) in `dir`. */
function quickstartIn(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const f of ['mission.hcl', 'cassette.jsonl']) copyFileSync(join(REPO_ROOT, 'examples', 'quickstart', f), join(dir, f));
  return dir;
}

/** Every entry of a folder with its kind, mode and content hash: what "unchanged" means here. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const st = statSync(join(dir, name));
    const content = st.isFile() ? createHash('sha256').update(readFileSync(join(dir, name))).digest('hex') : `rdev ${st.rdev}`;
    out[name] = `${(st.mode & 0o7777).toString(8)} ${st.size} ${content}`;
  }
  return out;
}

const mode = (path: string): number => statSync(path).mode & 0o777;

beforeAll(async () => {
  root = tempDir('squadron-dbfiles-');
  chmodSync(root, 0o755); // another user (nobody) must reach the read-only copies below
  project = quickstartIn(join(root, 'project'));
  const result = await runCli(['run', project, '--json'], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  runId = (JSON.parse(result.stdout) as { run_id: string }).run_id;
}, 120_000);

afterAll(() => {
  // Read-only folders made by the tests must be writable again to be removed.
  spawnSync('chmod', ['-R', 'u+w', root]);
  rmSync(root, { recursive: true, force: true });
});

describe('a --db that is not a Squadron database', () => {
  function targets(): { name: string; path: string; expected: string }[] {
    const dir = join(root, `targets-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'my notes, not a database\n'.repeat(100));
    chmodSync(text, 0o644);
    const other = join(dir, 'other-app.sqlite');
    const db = new Database(other);
    db.exec("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada'); CREATE TABLE schema_migrations (version TEXT PRIMARY KEY)");
    db.close();
    chmodSync(other, 0o644);
    // In WAL mode, merely reading it could make SQLite create -wal and -shm files beside it.
    const walApp = join(dir, 'wal-app.sqlite');
    const wal = new Database(walApp);
    wal.pragma('journal_mode = WAL');
    wal.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello')");
    wal.close();
    chmodSync(walApp, 0o600);
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const list = [
      { name: 'a text file', path: text, expected: 'it is not a SQLite file' },
      { name: "another application's SQLite file", path: other, expected: "it is a SQLite database without Squadron's schema" },
      { name: "another application's WAL-mode SQLite file", path: walApp, expected: "it is a SQLite database without Squadron's schema" },
      // A FIFO would block the process that opened it: the test would time out.
      { name: 'a FIFO', path: fifo, expected: 'it is not a regular file (it is a FIFO)' },
    ];
    if (IS_ROOT) {
      const device = join(dir, 'null');
      expect(spawnSync('mknod', ['-m', '0666', device, 'c', '1', '3']).status).toBe(0);
      list.push({ name: 'a character device', path: device, expected: 'it is not a regular file (it is a character device)' });
    }
    return list;
  }

  it('is refused by run, resume, runs and inspect with one line, and left exactly as it was', async () => {
    for (const target of targets()) {
      const dir = join(target.path, '..');
      const before = snapshot(dir);
      for (const args of [['run', project], ['resume', runId], ['runs'], ['inspect', runId]]) {
        const result = await runCli([...args, '--db', target.path], { cwd: root });
        const what = `${args[0]} on ${target.name}`;
        expect(result.code, what).toBe(2);
        const errors = result.stderr.split('\n').filter((l) => l.startsWith('error: '));
        expect(errors, what).toEqual([`error: ${target.path} is not a Squadron database: ${target.expected}; nothing was changed (pass --db with a Squadron database, or a path where none exists yet)`]);
        expect(result.stderr, what).not.toMatch(/\n\s+at /);
        expect(snapshot(dir), what).toEqual(before);
      }
    }
  }, 180_000);
});

describe('a read-only database', () => {
  it('can still be listed and inspected, and nothing is written beside it', async () => {
    const dir = join(root, 'readonly');
    mkdirSync(dir);
    const db = join(dir, 'squadron.db');
    copyFileSync(join(project, '.squadron', 'squadron.db'), db);
    chmodSync(db, 0o444);
    chmodSync(dir, 0o555);
    const before = snapshot(dir);
    const listed = await runCli(['runs', '--db', db, '--json'], { cwd: root, ...AS_OTHER_USER });
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { runs: { id: string }[] }).runs.map((r) => r.id)).toEqual([runId]);
    const inspected = await runCli(['inspect', runId, '--db', db], { cwd: root, ...AS_OTHER_USER });
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(inspected.stdout).toContain(`run ${runId} · mission quickstart · completed`);
    expect(snapshot(dir)).toEqual(before);
  }, 120_000);
});

describe('a Squadron database of an older schema', () => {
  /** What an older squadron left when stopped before its first migration: the bookkeeping table only. */
  function olderDatabase(dir: string): string {
    mkdirSync(dir);
    const path = join(dir, 'old.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
    db.close();
    chmodSync(path, 0o640);
    return path;
  }

  it('is upgraded by a read command when writable, which says so', async () => {
    const path = olderDatabase(join(root, 'older-writable'));
    const result = await runCli(['runs', '--db', path], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(`note: upgraded the database ${path} to the current schema (applied ${MIGRATIONS})\n`);
    expect(result.stdout).toBe('no runs yet\n');
    expect(mode(path)).toBe(0o640);
    const again = await runCli(['runs', '--db', path], { cwd: root });
    expect([again.code, again.stderr]).toEqual([0, '']);
  }, 120_000);

  it('found by searching, is left as it is (an older squadron may use it) while the others are listed; named, it is upgraded', async () => {
    const parent = join(root, 'search-older');
    const fresh = quickstartIn(join(parent, 'fresh'));
    const run = await runCli(['run', fresh, '--json'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    mkdirSync(join(parent, 'old'));
    const path = olderDatabase(join(parent, 'old', '.squadron')).replace(/old\.db$/, 'squadron.db');
    rmSync(path, { force: true });
    copyFileSync(join(parent, 'old', '.squadron', 'old.db'), path);
    rmSync(join(parent, 'old', '.squadron', 'old.db'));
    const before = snapshot(join(parent, 'old', '.squadron'));
    const listed = await runCli(['runs', '--json'], { cwd: parent });
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { runs: { db: string }[] }).runs.map((r) => r.db)).toEqual(['fresh/.squadron/squadron.db']);
    expect(listed.stderr).toContain(`warning: skipped old/.squadron/squadron.db: ${path} has an older schema (missing ${MIGRATIONS}), left as it is: an older squadron may still use it; name it with --db to upgrade it`);
    expect(snapshot(join(parent, 'old', '.squadron'))).toEqual(before);
    const named = await runCli(['runs', '--db', path], { cwd: parent });
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toContain(`note: upgraded the database ${path} to the current schema`);
  }, 120_000);

  it('is refused with one line when read-only and unreadable as it is, and left unchanged', async () => {
    const dir = join(root, 'older-readonly');
    const path = olderDatabase(dir);
    chmodSync(path, 0o444);
    chmodSync(dir, 0o555);
    const before = snapshot(dir);
    const result = await runCli(['runs', '--db', path], { cwd: root, ...AS_OTHER_USER });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: ${path} has an older schema (missing ${MIGRATIONS}) that this squadron cannot read, and it is read-only so it cannot be upgraded; open it once with write access to the file and its folder\n`,
    );
    expect(snapshot(dir)).toEqual(before);
  }, 120_000);
});

describe('file modes', () => {
  it('never chmods an existing database; under umask 0000 creates .squadron, logs and workspaces 0700', async () => {
    const dir = quickstartIn(join(root, 'umask'));
    const run = await runCli(['run', dir, '--json'], { cwd: root, umask: 0o000 });
    expect(run.code, run.stderr).toBe(0);
    const squadron = join(dir, '.squadron');
    const id = (JSON.parse(run.stdout) as { run_id: string }).run_id;
    expect({
      squadron: mode(squadron),
      logs: mode(join(squadron, 'logs')),
      workspaces: mode(join(squadron, 'workspaces')),
      workspace: mode(join(squadron, 'workspaces', id)),
      db: mode(join(squadron, 'squadron.db')),
      log: mode(join(squadron, 'logs', `${id}.jsonl`)),
    }).toEqual({ squadron: 0o700, logs: 0o700, workspaces: 0o700, workspace: 0o700, db: 0o600, log: 0o600 });

    // The user chose to share the database with their group: later runs and reads keep that.
    chmodSync(join(squadron, 'squadron.db'), 0o640);
    const again = await runCli(['run', dir, '--json'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect((await runCli(['runs', '--db', dir], { cwd: root })).code).toBe(0);
    expect(mode(join(squadron, 'squadron.db'))).toBe(0o640);
  }, 120_000);
});
