// store.transaction with an async body on SQLite: other callers of the outer store queue (FIFO) until
// it ends instead of joining it, the body's own store bypasses the queue, nested calls are savepoints.

import { describe, expect, it } from 'vitest';
import { identityRedactor, type Store } from '../../store/index.js';
import { freshStore } from './fixtures.js';

/** A promise the test resolves when it wants, to hold a transaction open across other callers' turns. */
function latch(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

async function runNamed(store: Store, mission: string): Promise<string> {
  return (await store.runs.create({ mission, configPath: '/p/m.hcl', inputs: {} })).id;
}

async function missions(store: Store): Promise<string[]> {
  return (await store.runs.list()).map((r) => r.mission).sort();
}

describe('store.transaction (SQLite)', () => {
  it("keeps a concurrent writer's statement out of a transaction that rolls back", async () => {
    const store = freshStore();
    const held = latch();
    const inside = latch();
    const failing = store.transaction(async (tx) => {
      await runNamed(tx, 'inside');
      inside.open();
      await held.wait; // the other writer calls now, while this transaction is open
      throw new Error('the body fails');
    });
    await inside.wait;
    const other = runNamed(store, 'outside');
    held.open();
    await expect(failing).rejects.toThrow('the body fails');
    await other;
    expect(await missions(store)).toEqual(['outside']);
  });

  it("keeps a concurrent writer's statement out of a transaction that commits, and both survive", async () => {
    const store = freshStore();
    const held = latch();
    const inside = latch();
    const committing = store.transaction(async (tx) => {
      await runNamed(tx, 'inside');
      inside.open();
      await held.wait;
      return missions(tx);
    });
    await inside.wait;
    const other = runNamed(store, 'outside');
    held.open();
    const seenInside = await committing;
    await other;
    expect(seenInside).toEqual(['inside']);
    expect(await missions(store)).toEqual(['inside', 'outside']);
  });

  it('runs queued callers in the order they called (first in, first out)', async () => {
    const store = freshStore();
    const held = latch();
    const first = store.transaction(async (tx) => {
      await held.wait;
      await runNamed(tx, 'a');
    });
    const second = runNamed(store, 'b');
    const third = store.transaction(async (tx) => {
      await runNamed(tx, 'c');
    });
    const fourth = runNamed(store, 'd');
    held.open();
    await Promise.all([first, second, third, fourth]);
    // Insertion order (newest first in the list) is the order the statements ran in.
    expect((await store.runs.list()).map((r) => r.mission).reverse()).toEqual(['a', 'b', 'c', 'd']);
  });

  it("rolls back a nested transaction's savepoint alone when its body rejects", async () => {
    const store = freshStore();
    await store.transaction(async (tx) => {
      await runNamed(tx, 'outer');
      await expect(
        tx.transaction(async (inner) => {
          await runNamed(inner, 'nested');
          throw new Error('nested fails');
        }),
      ).rejects.toThrow('nested fails');
      await tx.transaction(async (inner) => {
        await runNamed(inner, 'kept');
      });
    });
    expect(await missions(store)).toEqual(['kept', 'outer']);
  });

  it('refuses a call through a transaction store after its transaction ended', async () => {
    const store = freshStore();
    let leaked: Store | undefined;
    await store.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(runNamed(leaked!, 'late')).rejects.toThrow(/already ended/);
    expect(await missions(store)).toEqual([]);
  });

  it('shares the queue with a view of the same connection under another redactor', async () => {
    const store = freshStore();
    const other = store.withRedactor(identityRedactor);
    const held = latch();
    const inside = latch();
    const failing = store.transaction(async (tx) => {
      await runNamed(tx, 'inside');
      inside.open();
      await held.wait;
      throw new Error('rolled back');
    });
    await inside.wait;
    const outside = runNamed(other, 'outside');
    held.open();
    await expect(failing).rejects.toThrow('rolled back');
    await outside;
    expect(await missions(store)).toEqual(['outside']);
  });
});
