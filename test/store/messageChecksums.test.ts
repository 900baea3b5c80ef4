// SQLite's side of the message checksums (what both backends guarantee is in contract/integrity.test.ts):
// a row edited by hand into text that is not JSON says so; and the portable CRC-32 the checksum uses.

import Database from 'better-sqlite3';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { StoreError, type Store } from '../../store/index.js';
import { messageChecksum, portableCrc32 } from '../../store/rowChecksum.js';
import { freshStore, readError, seedSession } from './fixtures.js';

/** Runs SQL on the database file through a second connection, as a person with sqlite3 would. */
function edit(store: Store, sql: string, ...params: unknown[]): void {
  const raw = new Database(store.path);
  try {
    raw.prepare(sql).run(...params);
  } finally {
    raw.close();
  }
}

describe('message checksums', () => {
  it('says a hand-edited row is not JSON, as before', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
    edit(store, "UPDATE messages SET parts_json = '[{\"type\":'");
    const error = (await readError(() => store.messages.list(sessionId)));
    expect([error.code, error.message]).toEqual(['CORRUPT_ROW', expect.stringMatching(/^messages \d+ parts_json is not valid JSON$/)]);
  });
});

describe('the portable CRC-32', () => {
  it("equals zlib's, chained or not, for ASCII and non-ASCII text", async () => {
    for (const text of ['', 'hello', '[{"type":"text","text":"wörld ✓ 🦉"}]', 'x'.repeat(10_000)]) {
      expect(portableCrc32(text)).toBe(crc32(text));
      expect(portableCrc32(text, portableCrc32('head\u0000'))).toBe(crc32(text, crc32('head\u0000')));
    }
  });
  it('parses a proven row\'s parts when they are first read, and only once', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'go' }], turn: 1, kind: 'instruction' });
    await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'done' }], turn: 1 });
    // Forged: the first row's parts are not JSON at all, with a matching checksum. Only a parse
    // that waits for the parts to be read lets the session be listed (and its other rows used).
    edit(store, 'UPDATE messages SET parts_json = ?, checksum = ? WHERE seq = 1', 'not json', messageChecksum('user', 'instruction', null, 'not json'));
    const [first, second] = await store.messages.list(sessionId);
    expect(first?.kind).toBe('instruction');
    expect(second?.parts).toBe(second?.parts);
    expect(second?.parts).toEqual([{ type: 'text', text: 'done' }]);
    const error = (() => {
      try {
        return first?.parts;
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toMatch(/parts_json is not valid JSON/);
  });

  it('keeps the fields of a row in their order when its parts are read lazily', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
    const [row] = await store.messages.list(sessionId);
    expect(Object.keys(JSON.parse(JSON.stringify(row)) as object)).toEqual(['id', 'sessionId', 'seq', 'role', 'parts', 'turn', 'createdAt']);
    expect({ ...row }.parts).toEqual([{ type: 'text', text: 'hi' }]);
  });
});
