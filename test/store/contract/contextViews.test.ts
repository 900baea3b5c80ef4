// The context views' contract on every backend: numbered per session, the newest applies, the head's
// parts come back as stored (secrets redacted at rest and restored), and a hand-edited head is refused.

import { describe, expect, it } from 'vitest';
import { createSecretRedactor, StoreError, type NewContextView } from '../../../store/index.js';
import { seedSession, useBackends } from './backends.js';

const SECRET = 'sk-context-0123456789';

function view(keepFrom: number, text: string): NewContextView {
  return { kind: 'compaction', afterSeq: keepFrom + 3, keepFrom, head: [{ type: 'text', text }], inputTokens: 120_000 + keepFrom, dropped: keepFrom - 1 };
}

describe.each(useBackends())('$name store', (backend) => {
  describe('context views', () => {
    it('numbers views per session, lists them oldest first and gives the newest as latest', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      const other = (await seedSession(store, 'analyst')).sessionId;
      expect(await store.contextViews.latest(sessionId)).toBeUndefined();
      expect(await store.contextViews.list(sessionId)).toEqual([]);
      const first = await store.contextViews.record(sessionId, view(5, 'first'));
      await store.contextViews.record(other, { ...view(3, 'elsewhere'), kind: 'pruning' });
      const second = await store.contextViews.record(sessionId, view(9, 'second'));
      expect([first.seq, second.seq]).toEqual([1, 2]);
      expect(second).toMatchObject({ sessionId, kind: 'compaction', afterSeq: 12, keepFrom: 9, inputTokens: 120_009, dropped: 8, head: [{ type: 'text', text: 'second' }] });
      expect(await store.contextViews.latest(sessionId)).toEqual(second);
      expect((await store.contextViews.list(sessionId)).map((v) => v.keepFrom)).toEqual([5, 9]);
      expect(await store.contextViews.latest(other)).toMatchObject({ seq: 1, kind: 'pruning', keepFrom: 3 });
    });

    it('is written inside a transaction and gone when it rolls back', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await expect(
        store.transaction(async (tx) => {
          await tx.contextViews.record(sessionId, view(4, 'rolled back'));
          throw new Error('crash');
        }),
      ).rejects.toThrow('crash');
      expect(await store.contextViews.latest(sessionId)).toBeUndefined();
    });

    it('stores a secret in the head redacted and restores it on read', async () => {
      const store = await backend.fresh({ redactor: createSecretRedactor([{ name: 'vars.token', value: SECRET }]) });
      const { sessionId } = await seedSession(store);
      await store.contextViews.record(sessionId, view(4, `the task used ${SECRET}`));
      expect((await backend.dump(store)).includes(SECRET)).toBe(false);
      expect((await store.contextViews.latest(sessionId))?.head).toEqual([{ type: 'text', text: `the task used ${SECRET}` }]);
    });

    it('refuses a head edited by hand into something that is not parts', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.contextViews.record(sessionId, view(4, 'ok'));
      await backend.exec(store, 'UPDATE context_views SET head_json = ?', '[{"type":"text"}]');
      await expect(store.contextViews.latest(sessionId)).rejects.toThrow(StoreError);
    });
  });
});
