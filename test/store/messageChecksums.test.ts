// The checksum proof on message rows: a row this store wrote is read back without validating its
// parts again; a row edited behind its back (or stored before checksums) is validated in full, with
// the same error as before. "Skipped" is observed without timing: a row forged with a matching
// checksum comes back unvalidated, which only a skipped validation can do.

import Database from 'better-sqlite3';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createSecretRedactor, StoreError, type Store } from '../../store/index.js';
import { messageChecksum, portableCrc32 } from '../../store/rowChecksum.js';
import { freshStore, seedSession } from './fixtures.js';

/** Runs SQL on the database file through a second connection, as a person with sqlite3 would. */
function edit(store: Store, sql: string, ...params: unknown[]): void {
  const raw = new Database(store.path);
  try {
    raw.prepare(sql).run(...params);
  } finally {
    raw.close();
  }
}

async function readError(read: () => Promise<unknown>): Promise<StoreError> {
  try {
    await read();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('the read did not fail');
}

/** Not valid parts (a text part without its text), as stored JSON. */
const INVALID_PARTS = '[{"type":"text"}]';

describe('message checksums', () => {
  it('stores a checksum of role, kind, call id and stored parts with every message', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'go' }], turn: 1, kind: 'instruction', callId: 'toolu_1' });
    const raw = new Database(store.path, { readonly: true });
    const row = raw.prepare('SELECT role, kind, call_id, parts_json, checksum FROM messages').get() as { role: string; kind: string; call_id: string; parts_json: string; checksum: number };
    raw.close();
    expect(row.checksum).toBe(messageChecksum('user', 'instruction', 'toolu_1', row.parts_json));
  });

  it('reads back a row its checksum proves without validating it again', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
    // Forged: invalid parts with a matching checksum. Validation would refuse it; the proof skips it.
    edit(store, 'UPDATE messages SET parts_json = ?, checksum = ?', INVALID_PARTS, messageChecksum('assistant', null, null, INVALID_PARTS));
    expect((await store.messages.list(sessionId))[0]?.parts).toEqual([{ type: 'text' }]);
  });

  it('validates a row edited by hand in full, with the error of an unchecksummed row', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
    edit(store, 'UPDATE messages SET parts_json = ?', INVALID_PARTS);
    const edited = (await readError(() => store.messages.list(sessionId)));
    expect(edited.code).toBe('CORRUPT_ROW');
    expect(edited.message).toMatch(/^messages \d+ parts_json: .*expected string, received undefined[\s\S]*at \[0\]\.text$/);

    // A row stored before checksums (NULL) is always validated, and reads the same error.
    edit(store, 'UPDATE messages SET checksum = NULL');
    expect((await readError(() => store.messages.list(sessionId))).message).toBe(edited.message);
  });

  it('says a hand-edited row is not JSON, as before', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
    edit(store, "UPDATE messages SET parts_json = '[{\"type\":'");
    const error = (await readError(() => store.messages.list(sessionId)));
    expect([error.code, error.message]).toEqual(['CORRUPT_ROW', expect.stringMatching(/^messages \d+ parts_json is not valid JSON$/)]);
  });

  it('covers role, kind and call id: moving a proven row to another of them makes it validated', async () => {
    for (const change of ["role = 'user'", "kind = 'instruction'", "call_id = 'toolu_9'", "kind = ''"]) {
      const store = freshStore();
      const { sessionId } = await seedSession(store);
      await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
      edit(store, 'UPDATE messages SET parts_json = ?, checksum = ?', INVALID_PARTS, messageChecksum('assistant', null, null, INVALID_PARTS));
      edit(store, `UPDATE messages SET ${change}`);
      expect((await readError(() => store.messages.list(sessionId))).code, change).toBe('CORRUPT_ROW');
    }
  });

  it('proves rows written with a redactor, and restores their secrets', async () => {
    const redactor = createSecretRedactor([{ name: 'vars.token', value: 'tok-0123456789abcdef' }]);
    const store = freshStore({ redactor });
    const { sessionId } = await seedSession(store);
    const parts = [{ type: 'tool_use' as const, id: 'toolu_1', name: 'http_get', input: { auth: 'Bearer tok-0123456789abcdef', note: 'a \u0001 control' } }];
    await store.messages.append(sessionId, { role: 'assistant', parts, turn: 1 });
    const raw = new Database(store.path, { readonly: true });
    const stored = raw.prepare('SELECT parts_json, checksum FROM messages').get() as { parts_json: string; checksum: number };
    raw.close();
    expect(stored.parts_json).not.toContain('tok-0123456789abcdef');
    expect(stored.checksum).toBe(messageChecksum('assistant', null, null, stored.parts_json));
    expect((await store.messages.list(sessionId))[0]?.parts).toEqual(parts);
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
