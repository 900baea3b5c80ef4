import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, StoreError } from '../../store/index.js';
import { tempDir } from './fixtures.js';

const mode = (file: string): number => statSync(file).mode & 0o777;

describe('database file', () => {
  it('creates missing parent folders and a database readable only by its owner (WAL and SHM too)', () => {
    const path = join(tempDir(), 'project', '.squadron', 'store.db');
    const previous = process.umask(0o022);
    try {
      const store = openStore(path);
      store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      expect(mode(path)).toBe(0o600);
      expect(existsSync(`${path}-wal`)).toBe(true);
      expect(mode(`${path}-wal`)).toBe(0o600);
      expect(mode(`${path}-shm`)).toBe(0o600);
      expect(store.path).toBe(path);
      store.close();
    } finally {
      process.umask(previous);
    }
  });

  it('tightens an existing database file that others could read', () => {
    const dir = tempDir();
    const path = join(dir, 'store.db');
    mkdirSync(dir, { recursive: true });
    closeSync(openSync(path, 'w', 0o644));
    chmodSync(path, 0o644);
    openStore(path).close();
    expect(mode(path)).toBe(0o600);
  });

  it('uses WAL mode and enforces foreign keys', async () => {
    const path = join(tempDir(), 'store.db');
    openStore(path).close();
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    const store = openStore(path);
    expect(() => store.tasks.ensure('run_missing', 'x')).toThrow(/FOREIGN KEY/);
    store.close();
  });

  it('waits for another process that holds the write lock instead of failing with SQLITE_BUSY', async () => {
    const path = join(tempDir(), 'store.db');
    const store = openStore(path);
    const run = store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
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
    store.runs.setStatus(run.id, 'completed');
    const waited = performance.now() - started;
    await exited;
    expect(store.runs.get(run.id)?.status).toBe('completed');
    expect(waited).toBeGreaterThan(100);
    store.close();
  });
});

describe('opening something that is not a database', () => {
  it('fails with one clear StoreError naming the file', () => {
    const path = join(tempDir(), 'notes.txt');
    writeFileSync(path, 'these are my notes, not a database '.repeat(200));
    let error: unknown;
    try {
      openStore(path).close();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('OPEN_FAILED');
    expect((error as Error).message).toBe(`cannot open the database ${path}: file is not a database`);
  });
});
