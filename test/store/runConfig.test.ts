// The run's config record (migration 0002): config hashes and variables stored with a run, accepted
// changes appended, task attempts and the relabelling of a failed attempt's sessions.

import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { assetPath } from '../../core/assets.js';
import { openStore } from '../../store/index.js';
import { migrate } from '../../store/migrate.js';
import { freshStore, seedSession, tempDir } from './fixtures.js';

const CONFIG = { files: { 'main.hcl': 'a'.repeat(64) } };
const VARIABLES = { values: { port: '8080' }, secrets: ['api_key'] };

describe('runs: config and variables', () => {
  it('stores the config hashes and variables with the run and reads them back', async () => {
    const store = freshStore();
    const run = await store.runs.create({ mission: 'm', configPath: '/p', inputs: {}, config: CONFIG, variables: VARIABLES });
    expect(await store.runs.get(run.id)).toMatchObject({ config: CONFIG, variables: VARIABLES, configChanges: [] });
  });

  it('replaces them on updateConfig, and appends a change record only when changes are given', async () => {
    const store = freshStore();
    const run = await store.runs.create({ mission: 'm', configPath: '/p', inputs: {}, config: CONFIG, variables: VARIABLES });
    const next = { values: { port: '9' }, secrets: [] };
    await store.runs.updateConfig(run.id, { config: CONFIG, variables: next });
    expect((await store.runs.get(run.id))?.configChanges).toEqual([]);
    await store.runs.updateConfig(run.id, { config: CONFIG, variables: next, changes: ['variable port changed from "8080" to "9"'] });
    await store.runs.updateConfig(run.id, { config: { files: {} }, variables: next, changes: ['file main.hcl removed'] });
    const row = (await store.runs.get(run.id))!;
    expect(row.variables).toEqual(next);
    expect(row.config).toEqual({ files: {} });
    expect(row.configChanges.map((c) => c.changes)).toEqual([['variable port changed from "8080" to "9"'], ['file main.hcl removed']]);
    await expect(store.runs.updateConfig('run_missing', { config: CONFIG, variables: next })).rejects.toThrow(/no run run_missing/);
  });

  it('reads a run stored before migration 0002 as having no config record', async () => {
    const dir = tempDir();
    const migrations = join(dir, 'migrations');
    mkdirSync(migrations);
    copyFileSync(join(assetPath('migrations', 'sqlite'), '0001_initial.sql'), join(migrations, '0001_initial.sql'));
    const path = join(dir, 'old.db');
    // A database of the 0001 schema with a run row as it stored them.
    const db = new Database(path);
    migrate(db, migrations, () => '2026-01-01T00:00:00.000Z');
    db.prepare(`INSERT INTO runs (id, mission, config_path, status, inputs_json, started_at) VALUES ('run_old', 'm', '/p', 'interrupted', '{}', '2026-01-01T00:00:00.000Z')`).run();
    db.prepare(`INSERT INTO tasks (id, run_id, name, status) VALUES ('tsk_old', 'run_old', 't', 'failed')`).run();
    db.close();

    const store = openStore(path);
    try {
      const row = (await store.runs.get('run_old'))!;
      expect(row.config).toBeUndefined();
      expect(row.variables).toBeUndefined();
      expect(row.configChanges).toEqual([]);
      expect((await store.tasks.get('run_old', 't'))?.attempt).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe('tasks and sessions: retrying a failed attempt', () => {
  it('puts a failed task back to pending with the next attempt number; relabels its sessions', async () => {
    const store = freshStore();
    const { runId, sessionId } = await seedSession(store, 'commander');
    await store.tasks.markRunning(runId, 'research');
    await store.tasks.fail(runId, 'research', 'boom');
    expect(await store.tasks.retry(runId, 'research')).toBe(2);
    expect(await store.tasks.get(runId, 'research')).toMatchObject({ status: 'pending', attempt: 2, error: undefined, finishedAt: undefined });
    await expect(store.tasks.retry(runId, 'research')).rejects.toThrow(/no failed task research/);

    expect(await store.sessions.relabel(runId, 'research', 'research#1')).toBe(1);
    expect(await store.sessions.get(runId, 'research', 'commander')).toBeUndefined();
    expect((await store.sessions.byId(sessionId))?.task).toBe('research#1');
  });
});
