import Database from 'better-sqlite3';
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assetPath } from '../../core/assets.js';
import { migrationsFolder, openStore, readMigrations, StoreError } from '../../store/index.js';
import { migrate } from '../../store/migrate.js';
import { tempDir } from './fixtures.js';

/** A private copy of the real migrations, so a test can edit, add or remove files. */
function copyMigrations(): string {
  const dir = join(tempDir(), 'migrations');
  mkdirSync(dir);
  for (const f of readdirSync(assetPath('migrations', 'sqlite'))) copyFileSync(join(assetPath('migrations', 'sqlite'), f), join(dir, f));
  return dir;
}

function appliedVersions(dbPath: string): { version: number; name: string }[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[];
  } finally {
    db.close();
  }
}

function openError(path: string, migrationsDir: string): StoreError {
  try {
    openStore(path, { migrationsDir }).close();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('openStore succeeded but should have failed');
}

describe('migrations', () => {
  it('applies every migration on a fresh database and records it with its checksum', async () => {
    const path = join(tempDir(), 'store.db');
    openStore(path).close();
    const files = readMigrations(assetPath('migrations', 'sqlite'));
    expect(files.length).toBeGreaterThan(0);
    expect(appliedVersions(path)).toEqual(files.map((f) => ({ version: f.version, name: f.name })));
    const db = new Database(path, { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    db.close();
    expect(tables).toEqual(expect.arrayContaining(['runs', 'tasks', 'sessions', 'messages', 'tool_calls', 'loaded_tools', 'model_turns', 'events', 'route_decisions', 'leases']));
  });

  it('skips applied migrations on reopen and keeps the data', async () => {
    const path = join(tempDir(), 'store.db');
    const first = openStore(path);
    const run = await first.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: { a: 1 } });
    first.close();
    const db = new Database(path, { readonly: true });
    const appliedAt = db.prepare('SELECT applied_at FROM schema_migrations').pluck().all();
    db.close();

    const second = openStore(path);
    expect((await second.runs.get(run.id))?.inputs).toEqual({ a: 1 });
    second.close();
    const again = new Database(path, { readonly: true });
    expect(again.prepare('SELECT applied_at FROM schema_migrations').pluck().all()).toEqual(appliedAt);
    again.close();
  });

  it('applies a migration added after the database was created, and only that one', async () => {
    const dir = copyMigrations();
    const path = join(tempDir(), 'store.db');
    openStore(path, { migrationsDir: dir }).close();
    const next = readMigrations(dir).length + 1;
    writeFileSync(join(dir, `${String(next).padStart(4, '0')}_add_notes.sql`), 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT) STRICT;\n');
    openStore(path, { migrationsDir: dir }).close();
    expect(appliedVersions(path).at(-1)).toEqual({ version: next, name: 'add_notes' });
  });

  it('refuses a migration that was edited after it was applied', async () => {
    const dir = copyMigrations();
    const path = join(tempDir(), 'store.db');
    openStore(path, { migrationsDir: dir }).close();
    appendFileSync(join(dir, '0001_initial.sql'), '\nCREATE TABLE sneaky (id INTEGER);\n');

    const err = openError(path, dir);
    expect(err.code).toBe('MIGRATION_EDITED');
    expect(err.message).toMatch(/^migration 0001_initial\.sql was edited after it was applied \(checksum [0-9a-f]{12}… recorded, [0-9a-f]{12}… now\); restore it and add a new migration instead$/);
  });

  it('does not treat CRLF line endings as an edit', async () => {
    const dir = copyMigrations();
    const path = join(tempDir(), 'store.db');
    openStore(path, { migrationsDir: dir }).close();
    const file = join(dir, '0001_initial.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
    expect(() => openStore(path, { migrationsDir: dir }).close()).not.toThrow();
  });

  it('refuses a migration renamed after it was applied', async () => {
    const dir = copyMigrations();
    const path = join(tempDir(), 'store.db');
    openStore(path, { migrationsDir: dir }).close();
    renameSync(join(dir, '0001_initial.sql'), join(dir, '0001_first.sql'));
    const err = openError(path, dir);
    expect(err.code).toBe('MIGRATION_EDITED');
    expect(err.message).toContain('0001_initial.sql was renamed to 0001_first.sql');
  });

  it('refuses a database written by a newer version (an applied migration it does not know)', async () => {
    const newer = copyMigrations();
    const path = join(tempDir(), 'store.db');
    const next = readMigrations(newer).length + 1;
    const nextName = `${String(next).padStart(4, '0')}_future.sql`;
    writeFileSync(join(newer, nextName), 'CREATE TABLE future (id INTEGER) STRICT;\n');
    openStore(path, { migrationsDir: newer }).close();

    const err = openError(path, assetPath('migrations', 'sqlite'));
    expect(err.code).toBe('MIGRATION_UNKNOWN');
    expect(err.message).toContain(`newer squadron (it has migration ${nextName}`);
  });

  it('refuses a gap in the numbering, naming the missing number', async () => {
    const dir = copyMigrations();
    const next = readMigrations(dir).length;
    writeFileSync(join(dir, `${String(next + 2).padStart(4, '0')}_skipped.sql`), 'SELECT 1;\n');
    const err = openError(join(tempDir(), 'store.db'), dir);
    expect(err.code).toBe('MIGRATION_SEQUENCE');
    expect(err.message).toContain(`migration ${String(next + 1).padStart(4, '0')} is missing`);
  });

  it('refuses two migrations with the same number', async () => {
    const dir = copyMigrations();
    writeFileSync(join(dir, '0001_again.sql'), 'SELECT 1;\n');
    const err = openError(join(tempDir(), 'store.db'), dir);
    expect(err.code).toBe('MIGRATION_SEQUENCE');
    expect(err.message).toMatch(/0001_again\.sql and 0001_initial\.sql share number 0001/);
  });

  it('refuses a misnamed migration file', async () => {
    const dir = copyMigrations();
    writeFileSync(join(dir, '2_Extra.sql'), 'SELECT 1;\n');
    const err = openError(join(tempDir(), 'store.db'), dir);
    expect(err.code).toBe('MIGRATION_SEQUENCE');
    expect(err.message).toContain('2_Extra.sql is misnamed');
  });

  it('rolls back a failing migration together with its schema_migrations row', async () => {
    const dir = copyMigrations();
    const path = join(tempDir(), 'store.db');
    openStore(path, { migrationsDir: dir }).close();
    const next = readMigrations(dir).length + 1;
    const name = `${String(next).padStart(4, '0')}_broken.sql`;
    writeFileSync(join(dir, name), 'CREATE TABLE half (id INTEGER) STRICT;\nINSERT INTO no_such_table VALUES (1);\n');
    const err = openError(path, dir);
    expect(err.code).toBe('MIGRATION_FAILED');
    expect(err.message).toContain(name);
    const db = new Database(path, { readonly: true });
    const half = db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'half'").pluck().get();
    db.close();
    expect(half).toBe(0);
    expect(appliedVersions(path).map((r) => r.version)).not.toContain(next);
  });

  // Made by the squadron before migrations moved to migrations/sqlite/ (flat migrations/0001, 0002),
  // holding one run. Checksums are of content, so the move must not look like an edit.
  it('opens a database created when the migrations were flat in migrations/, and keeps its run', async () => {
    const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'flat-layout-0002.db');
    const path = join(tempDir(), 'old.db');
    copyFileSync(fixture, path);
    const before = appliedVersions(path);
    expect(before.map((r) => r.name)).toEqual(['initial', 'run_config']);

    const store = openStore(path);
    expect((await store.runs.get('run_qd5qgetgu2saqsqq3gyt'))?.inputs).toEqual({ topic: 'old layout' });
    await store.close();
    expect(appliedVersions(path)).toEqual(readMigrations(migrationsFolder('sqlite')).map((f) => ({ version: f.version, name: f.name })));
    expect(appliedVersions(path).slice(0, before.length)).toEqual(before);
  });

  it('verifies an up-to-date database without a write transaction (one read of schema_migrations)', async () => {
    const path = join(tempDir(), 'store.db');
    openStore(path).close();
    const db = new Database(path);
    const statements: string[] = [];
    const traced = new Proxy(db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === 'prepare' || prop === 'exec') return (sql: string) => (statements.push(sql.trim().split(/\s+/).slice(0, 4).join(' ')), (value as (s: string) => unknown).call(target, sql));
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    expect(migrate(traced, migrationsFolder('sqlite'), () => '2026-01-01T00:00:00.000Z')).toEqual({ applied: [] });
    db.close();
    expect(statements).toEqual(["SELECT 1 FROM sqlite_master", 'SELECT version, name, checksum']);
  });
  it('0009 rebuilds runs to allow stopped and waiting, keeping every row that references a run', async () => {
    const path = join(tempDir(), 'store.db');
    const files = readMigrations(assetPath('migrations', 'sqlite'));
    // Opened through openStore first: better-sqlite3 reads SQLITE_USE_URI when its addon first loads.
    openStore(join(tempDir(), 'other.db')).close();
    const db = new Database(path);
    db.pragma('foreign_keys = ON');
    migrate(db, files.filter((f) => f.version < 9), () => '2025-01-01T00:00:00.000Z');
    db.exec(`INSERT INTO runs (id, mission, config_path, status, inputs_json, started_at) VALUES ('run_a', 'm', '/c.hcl', 'interrupted', '{}', '2025-01-01T00:00:00.000Z');
      INSERT INTO tasks (id, run_id, name) VALUES ('tsk_a', 'run_a', 'one');`);
    expect(() => db.prepare("UPDATE runs SET status = 'stopped'").run()).toThrow(/CHECK/);
    migrate(db, files, () => '2025-01-01T00:00:00.000Z');
    expect(db.prepare('SELECT name FROM tasks').pluck().all()).toEqual(['one']);
    db.prepare("UPDATE runs SET status = 'stopped'").run();
    expect(() => db.prepare("UPDATE runs SET status = 'paused'").run()).toThrow(/CHECK/);
    // Foreign keys are on again, and still point at the rebuilt table: deleting the run cascades.
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() => db.prepare("INSERT INTO tasks (id, run_id, name) VALUES ('tsk_b', 'run_nope', 'x')").run()).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM runs WHERE id = 'run_a'").run();
    expect(db.prepare('SELECT COUNT(*) FROM tasks').pluck().get()).toBe(0);
    db.close();
  });

  it('0014 adds parts_bytes, NULL for messages stored before: their heads carry no size, the messages appended since do', async () => {
    const { path, files, db } = migratedBefore(14);
    db.exec(`INSERT INTO runs (id, mission, config_path, status, inputs_json, started_at) VALUES ('run_a', 'm', '/c.hcl', 'stopped', '{}', '2025-01-01T00:00:00.000Z');
      INSERT INTO sessions (id, run_id, task_name, agent, role, model, system_prompt, tools_json, skills_json, status, started_at) VALUES ('ses_a', 'run_a', 't', 'worker', 'agent', 'x', '', '[]', '[]', 'running', '2025-01-01T00:00:00.000Z');
      INSERT INTO messages (session_id, seq, role, parts_json, turn, created_at) VALUES ('ses_a', 1, 'user', '[{"type":"text","text":"before"}]', 1, '2025-01-01T00:00:00.000Z');`);
    migrate(db, files, () => '2025-01-01T00:00:00.000Z');
    db.close();
    const store = openStore(path);
    try {
      await store.messages.append('ses_a', { role: 'assistant', parts: [{ type: 'text', text: 'after' }], turn: 1 });
      expect((await store.messages.heads('ses_a')).map((h) => [h.seq, h.partsBytes])).toEqual([
        [1, undefined],
        [2, Buffer.byteLength(JSON.stringify([{ type: 'text', text: 'after' }]))],
      ]);
      expect((await store.messages.list('ses_a')).map((m) => m.parts)).toEqual([[{ type: 'text', text: 'before' }], [{ type: 'text', text: 'after' }]]);
    } finally {
      store.close();
    }
  });

  it('0013 adds budget_reservations, empty for a run stored before: its budget totals are its stored turns', async () => {
    const { path, files, db } = migratedBefore(13);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'budget_reservations'").pluck().get()).toBeUndefined();
    db.exec(`INSERT INTO runs (id, mission, config_path, status, inputs_json, started_at) VALUES ('run_a', 'm', '/c.hcl', 'stopped', '{}', '2025-01-01T00:00:00.000Z');
      INSERT INTO sessions (id, run_id, task_name, agent, role, model, system_prompt, tools_json, skills_json, status, started_at) VALUES ('ses_a', 'run_a', 't', 'worker', 'agent', 'x', '', '[]', '[]', 'completed', '2025-01-01T00:00:00.000Z');
      INSERT INTO model_turns (run_id, task_name, session_id, turn, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, duration_ms, stop_reason, created_at) VALUES ('run_a', 't', 'ses_a', 1, 'x', 10, 5, 0, 0, 0.25, 1, 'end_turn', '2025-01-01T00:00:00.000Z');`);
    migrate(db, files, () => '2025-01-01T00:00:00.000Z');
    expect(db.prepare('SELECT COUNT(*) FROM budget_reservations').pluck().get()).toBe(0);
    // A reservation goes with its run.
    db.prepare("INSERT INTO budget_reservations (id, run_id, scope, tokens, dollars, owner, created_at) VALUES ('rsv_a', 'run_a', 'mission', 1, 0.5, 'own_a', '2025-01-01T00:00:00.000Z')").run();
    db.close();
    const store = openStore(path);
    try {
      const totals = await store.budgets.totals('run_a', ['mission', 't']);
      // The reservation's holder holds no lease: it does not count.
      expect(totals.get('mission')).toMatchObject({ settled: { tokens: 15, dollars: 0.25 }, reserved: { tokens: 0, dollars: 0 }, inFlight: 0 });
      expect(totals.get('t')?.settled.tokens).toBe(15);
    } finally {
      store.close();
    }
  });

  it('0012 adds runs.budget_json, NULL for a run stored before: that run opens with no recorded budget', async () => {
    const path = join(tempDir(), 'store.db');
    const files = readMigrations(assetPath('migrations', 'sqlite'));
    openStore(join(tempDir(), 'other.db')).close();
    const db = new Database(path);
    migrate(db, files.filter((f) => f.version < 12), () => '2025-01-01T00:00:00.000Z');
    db.exec(`INSERT INTO runs (id, mission, config_path, status, inputs_json, started_at) VALUES ('run_a', 'm', '/c.hcl', 'stopped', '{}', '2025-01-01T00:00:00.000Z');`);
    migrate(db, files, () => '2025-01-01T00:00:00.000Z');
    expect(db.prepare("SELECT budget_json FROM runs WHERE id = 'run_a'").pluck().get()).toBeNull();
    db.close();
    const store = openStore(path);
    try {
      expect(await store.runs.get('run_a')).toMatchObject({ id: 'run_a', status: 'stopped', budget: undefined });
    } finally {
      store.close();
    }
  });
});

/** A database file with the packaged migrations applied up to (not including) `version`, foreign keys on. */
function migratedBefore(version: number): { path: string; files: ReturnType<typeof readMigrations>; db: Database.Database } {
  const path = join(tempDir(), 'store.db');
  const files = readMigrations(assetPath('migrations', 'sqlite'));
  const db = new Database(path);
  db.pragma('foreign_keys = ON');
  migrate(db, files.filter((f) => f.version < version), () => '2025-01-01T00:00:00.000Z');
  return { path, files, db };
}
