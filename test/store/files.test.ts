import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assetPath } from '../../core/assets.js';
import { openStore, readMigrations, StoreError } from '../../store/index.js';
import { tempDir } from './fixtures.js';

const mode = (file: string): number => statSync(file).mode & 0o777;

describe('database file', () => {
  it('creates missing parent folders and a database readable only by its owner (WAL and SHM too)', async () => {
    const path = join(tempDir(), 'project', '.squadron', 'store.db');
    const previous = process.umask(0o022);
    try {
      const store = openStore(path);
      await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      expect(mode(path)).toBe(0o600);
      expect(existsSync(`${path}-wal`)).toBe(true);
      expect(mode(`${path}-wal`)).toBe(0o600);
      expect(mode(`${path}-shm`)).toBe(0o600);
      expect(store.path).toBe(path);
      await store.close();
    } finally {
      process.umask(previous);
    }
  });

  it('never changes the mode of an existing database (only a file it creates gets 0600)', async () => {
    const path = join(tempDir(), 'store.db');
    openStore(path).close();
    chmodSync(path, 0o640);
    const store = openStore(path);
    await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
    await store.close();
    expect(mode(path)).toBe(0o640);
  });

  it('creates the file 0600 and its folders 0700 whatever the umask', async () => {
    const dir = tempDir();
    const path = join(dir, 'a', 'b', 'store.db');
    for (const umask of [0o000, 0o277]) {
      const previous = process.umask(umask);
      try {
        const p = umask === 0 ? path : join(dir, 'c', 'store.db');
        openStore(p).close();
        expect([mode(p), mode(join(p, '..'))]).toEqual([0o600, 0o700]);
      } finally {
        process.umask(previous);
      }
    }
    expect(mode(join(dir, 'a'))).toBe(0o700);
    expect(mode(dir)).toBe(0o700); // existed before (mkdtemp): left as it was
  });

  it('opens a database whose path holds URI characters (%, ?, #, spaces)', async () => {
    const path = join(tempDir(), 'odd 50%20 ?x=1 #frag', 'store.db');
    const store = openStore(path);
    const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
    await store.close();
    const reader = openStore(path, { access: 'read' });
    expect((await reader.runs.get(run.id))?.mission).toBe('m');
    await reader.close();
    expect((await openStore(path).runs.get(run.id))?.mission).toBe('m');
  });

  it('opens for reading without creating anything, and refuses a missing database', async () => {
    const dir = tempDir();
    const path = join(dir, 'sub', 'store.db');
    expect(() => openStore(path, { access: 'read' })).toThrow(`no database at ${path}`);
    expect(existsSync(join(dir, 'sub'))).toBe(false);
  });

  it('uses WAL mode and enforces foreign keys', async () => {
    const path = join(tempDir(), 'store.db');
    openStore(path).close();
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    const store = openStore(path);
    await expect(store.tasks.ensure('run_missing', 'x')).rejects.toThrow(/FOREIGN KEY/);
    await store.close();
  });

  it('waits for another process that holds the write lock instead of failing with SQLITE_BUSY', async () => {
    const path = join(tempDir(), 'store.db');
    const store = openStore(path);
    const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const db = new D(process.argv[1]);
         db.exec('BEGIN IMMEDIATE'); process.stdout.write('locked');
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
         db.exec('COMMIT'); db.close();`,
        path,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
    });
    const started = performance.now();
    await store.runs.setStatus(run.id, 'completed');
    const waited = performance.now() - started;
    await exited;
    expect((await store.runs.get(run.id))?.status).toBe('completed');
    expect(waited).toBeGreaterThan(100);
    await store.close();
  });
});

describe('opening something that is not a Squadron database', () => {
  function refusal(path: string, access: 'read' | 'write'): StoreError {
    try {
      openStore(path, { access }).close();
    } catch (err) {
      if (err instanceof StoreError) return err;
      throw err;
    }
    throw new Error('openStore succeeded but should have failed');
  }

  it('refuses a text file with one clear StoreError naming the file, and leaves it as it was', async () => {
    const path = join(tempDir(), 'notes.txt');
    writeFileSync(path, 'these are my notes, not a database '.repeat(200));
    chmodSync(path, 0o644);
    const before = readFileSync(path);
    for (const access of ['read', 'write'] as const) {
      const error = refusal(path, access);
      expect(error.code).toBe('OPEN_FAILED');
      expect(error.message).toBe(`${path} is not a Squadron database: it is not a SQLite file; nothing was changed (pass --db with a Squadron database, or a path where none exists yet)`);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(mode(path)).toBe(0o644);
  });

  it("refuses another tool's schema_migrations table (other columns) and an empty file", async () => {
    const dir = tempDir();
    const { default: Database } = await import('better-sqlite3');
    const rails = join(dir, 'rails.db');
    const db = new Database(rails);
    db.exec('CREATE TABLE schema_migrations (version TEXT PRIMARY KEY); INSERT INTO schema_migrations VALUES (1)');
    db.close();
    expect(refusal(rails, 'write').message).toContain("is a SQLite database without Squadron's schema");
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    expect(refusal(empty, 'write').message).toContain('it is an empty file');
    expect(readFileSync(empty).length).toBe(0);
  });

  it('refuses a folder without opening it', async () => {
    const dir = tempDir();
    expect(refusal(dir, 'write').message).toContain('it is not a regular file (it is a directory)');
  });
});

describe('reading a database of an older schema', () => {
  it('upgrades it when writable and says so', async () => {
    const migrations = join(tempDir(), 'migrations');
    mkdirSync(migrations);
    for (const f of readdirSync(assetPath('migrations', 'sqlite'))) copyFileSync(join(assetPath('migrations', 'sqlite'), f), join(migrations, f));
    const path = join(tempDir(), 'store.db');
    openStore(path, { migrationsDir: migrations }).close();
    const next = `${String(readMigrations(migrations).length + 1).padStart(4, '0')}_add_notes.sql`;
    writeFileSync(join(migrations, next), 'CREATE TABLE notes (id INTEGER PRIMARY KEY) STRICT;\n');
    const notes: string[] = [];
    openStore(path, { access: 'read', migrationsDir: migrations, onNote: (m) => notes.push(m) }).close();
    expect(notes).toEqual([`upgraded the database ${path} to the current schema (applied ${next})`]);
    openStore(path, { access: 'read', migrationsDir: migrations, onNote: (m) => notes.push(m) }).close();
    expect(notes).toHaveLength(1);
  });
});
