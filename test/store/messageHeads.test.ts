// SQLite's side of a session's message heads (what both backends return is in contract/repos.test.ts):
// they are read from an index that holds every head column (migrations 0006, 0014), so listing the heads of
// a long session — what a resume reads to find its place — never reads the rows and their parts.

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { HEADS } from '../../store/queries/messages.js';
import { freshStore, seedSession } from './fixtures.js';

describe('message heads on SQLite', () => {
  it('are read from a covering index, without visiting the rows', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'hi' }], turn: 1, kind: 'instruction', callId: 'toolu_1' });
    const raw = new Database(store.path, { readonly: true });
    try {
      const plan = raw.prepare<[string], { detail: string }>(`EXPLAIN QUERY PLAN ${HEADS.compileFor('sqlite').text}`).all(sessionId).map((r) => r.detail);
      expect(plan).toEqual(['SEARCH messages USING COVERING INDEX messages_heads (session_id=?)']);
    } finally {
      raw.close();
    }
    const partsBytes = Buffer.byteLength(JSON.stringify([{ type: 'text', text: 'hi' }]));
    expect(await store.messages.heads(sessionId)).toEqual([{ id: expect.any(Number), seq: 1, role: 'user', turn: 1, kind: 'instruction', callId: 'toolu_1', partsBytes }]);
  });
});
