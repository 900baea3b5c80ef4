// Shared set-up for store tests: a fresh temporary folder per test, and a store opened in it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openStore, StoreError, type OpenStoreOptions, type Store } from '../../store/index.js';

const cleanups: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-store-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Opens a store in a fresh folder; it is closed after the test. */
export function freshStore(opts: OpenStoreOptions = {}): Store {
  const store = openStore(join(tempDir(), 'store.db'), opts);
  cleanups.push(async () => {
    try {
      await store.close();
    } catch {
      // already closed by the test
    }
  });
  return store;
}

/** A run with one task and one session, the usual starting point. */
export async function seedSession(store: Store, agent = 'worker'): Promise<{ runId: string; sessionId: string }> {
  const run = await store.runs.create({ mission: 'm', configPath: '/p/m.hcl', inputs: {} });
  await store.tasks.ensure(run.id, 'research');
  const session = await store.sessions.open({
    runId: run.id,
    task: 'research',
    agent,
    role: 'agent',
    model: 'claude',
    systemPrompt: 'You are a worker.',
    tools: ['builtins.http.get'],
    skills: [],
  });
  return { runId: run.id, sessionId: session.id };
}

/** The StoreError a read fails with (any other failure, or none, fails the test). */
export async function readError(read: () => Promise<unknown>): Promise<StoreError> {
  try {
    await read();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('the read did not fail');
}
