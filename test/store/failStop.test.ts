// The store's fail-stop (store/failStop.ts): the first storage failure under any call stops the
// store, and every later call through it (its transactions and redactor views included) rejects
// with the same error; other errors (a constraint, a missing row) pass through and stop nothing.

import { describe, expect, it } from 'vitest';
import { failStopOf, isStorageFailure, withFailStop } from '../../store/failStop.js';
import { StoreError } from '../../store/errors.js';
import type { Store } from '../../store/store.js';

function driverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A store whose runs.get answers what `next` says; enough of the interface for the wrapper. */
function scriptedStore(next: { outcome: 'ok' | Error }): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const runs = {
    get: async (id: string) => {
      calls.push(`get ${id}`);
      if (next.outcome !== 'ok') throw next.outcome;
      return undefined;
    },
  };
  const store = {
    path: '/tmp/x.db',
    close: async () => void calls.push('close'),
    checkpoint: async () => undefined,
    withRedactor: () => store,
    transaction: async <T>(fn: (tx: Store) => Promise<T>) => fn(store as unknown as Store),
    runs,
    units: undefined,
  } as unknown as Store;
  return { store, calls };
}

describe('the store fail-stop', () => {
  it('stops at the first storage failure: later calls reject with it without reaching the database', async () => {
    const next: { outcome: 'ok' | Error } = { outcome: driverError('SQLITE_FULL', 'database or disk is full') };
    const { store, calls } = scriptedStore(next);
    const guarded = withFailStop(store);
    const told: string[] = [];
    failStopOf(guarded)!.onFailure((e) => told.push(e.message));
    const first = await guarded.runs.get('a').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(StoreError);
    expect(first).toMatchObject({ code: 'STORE_FAILED', message: 'the database failed: database or disk is full (SQLITE_FULL)' });
    next.outcome = 'ok';
    await expect(guarded.runs.get('b')).rejects.toBe(first);
    await expect(guarded.transaction((tx) => tx.runs.get('c'))).rejects.toBe(first);
    await expect(guarded.withRedactor({} as never).runs.get('d')).rejects.toBe(first);
    expect(calls).toEqual(['get a']);
    expect(told).toEqual([(first as Error).message]);
    expect(failStopOf(guarded)!.unguarded).toBe(store);
    await guarded.close();
    expect(calls).toContain('close');
  });

  it('reports a failure inside a transaction whose body swallowed it, though the body resolved', async () => {
    const next: { outcome: 'ok' | Error } = { outcome: driverError('SQLITE_IOERR_WRITE', 'disk I/O error') };
    const { store } = scriptedStore(next);
    const guarded = withFailStop(store);
    const result = guarded.transaction(async (tx) => {
      await tx.runs.get('a').catch(() => undefined);
      return 'committed';
    });
    await expect(result).rejects.toMatchObject({ code: 'STORE_FAILED' });
  });

  it('names a locked database as held by another process', async () => {
    const { store } = scriptedStore({ outcome: driverError('SQLITE_BUSY', 'database is locked') });
    const guarded = withFailStop(store);
    await expect(guarded.runs.get('a')).rejects.toMatchObject({ code: 'DATABASE_BUSY', message: expect.stringContaining('the database /tmp/x.db is held by another process: database is locked (SQLITE_BUSY)') });
  });

  it('lets other errors through without stopping the store', async () => {
    const next: { outcome: 'ok' | Error } = { outcome: driverError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed') };
    const { store } = scriptedStore(next);
    const guarded = withFailStop(store);
    await expect(guarded.runs.get('a')).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    next.outcome = 'ok';
    await expect(guarded.runs.get('b')).resolves.toBeUndefined();
    expect(failStopOf(guarded)!.error).toBeUndefined();
  });

  it('classifies lost PostgreSQL connections and full disks as storage failures', () => {
    expect(isStorageFailure(driverError('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isStorageFailure(driverError('53100', 'could not extend file: No space left on device'))).toBe(true);
    expect(isStorageFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isStorageFailure(driverError('ECONNRESET', 'read ECONNRESET'))).toBe(true);
    expect(isStorageFailure(driverError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isStorageFailure(driverError('40001', 'could not serialize access'))).toBe(false);
    expect(isStorageFailure(new StoreError('NOT_FOUND', 'no run x'))).toBe(false);
  });
});
