// Messages: a session's conversation in order. Each append takes the next sequence number in the
// same statement; on PostgreSQL appends to one session are serialised by a row lock on the session
// (FOR NO KEY UPDATE, held until the transaction ends), so the next seq is read after every earlier
// append committed (SQLite's single writer does the same); the unique (session_id, seq) key stays the
// backstop. Each row carries its checksum (see rowChecksum.ts), so a long conversation is read back
// without validating every part again.

import { messageChecksum } from '../rowChecksum.js';
import { partsJsonBytes, readMessageHead, readMessageRow } from '../rowReaders.js';
import type { MessageRow } from '../rows.js';
import type { MessagesRepo } from '../repos/messages.js';
import { inList } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

// No session row means no lock to take; the insert then fails on the foreign key, on both backends.
const LOCK_SESSION = sql<[string]>('SELECT 1 FROM sessions WHERE id = $1 FOR NO KEY UPDATE');
const INSERT = sql<
  [session: string, role: string, parts: string, turn: number, kind: string | null, callId: string | null, at: string, checksum: number | bigint | string, bytes: number | null],
  { id: number; seq: number; created_at: string }
>(
  `INSERT INTO messages (session_id, seq, role, parts_json, turn, kind, call_id, created_at, checksum, parts_bytes)
   SELECT $1::text, COALESCE(MAX(seq), 0) + 1, $2::text, $3::json, $4::integer, $5::text, $6::text, $7::timestamptz, $8::bigint, $9::integer
   FROM messages WHERE session_id = $1::text
   RETURNING id, seq, created_at`,
);
const FROM_SEQ = sql<[string, number]>('SELECT * FROM messages WHERE session_id = $1 AND seq >= $2 ORDER BY seq');
/**
 * A session's message heads and their parts' sizes: read from the messages_heads index alone (0006,
 * 0014), never from the rows and their parts; without sizes on a SQLite schema before 0014 (opened read-only).
 */
export const HEADS = sql<[string]>('SELECT id, seq, role, turn, kind, call_id, parts_bytes FROM messages WHERE session_id = $1 ORDER BY seq');
const HEADS_UNSIZED = sql<[string]>('SELECT id, seq, role, turn, kind, call_id FROM messages WHERE session_id = $1 ORDER BY seq');
const BY_SEQS = sql<[string, unknown]>((d) => `SELECT * FROM messages WHERE session_id = $1 AND ${inList(d, 'seq', 2, 'integer')} ORDER BY seq`);
const COUNT = sql<[string], { n: number | string }>('SELECT COUNT(*) AS n FROM messages WHERE session_id = $1');

export function createMessagesRepo({ db, codec, now }: QueryContext): MessagesRepo {
  // A SQLite database of an older schema opened read-only (read as it is) may have no checksum column
  // (its rows are then all validated) or no parts_bytes (its heads carry no sizes); nothing is
  // appended to it.
  const current = db.hasColumn('messages', 'checksum') && db.hasColumn('messages', 'parts_bytes');
  const heads = db.hasColumn('messages', 'parts_bytes') ? HEADS : HEADS_UNSIZED;
  if (current) db.prepare(INSERT);
  db.prepare(FROM_SEQ, heads, BY_SEQS, COUNT);
  const read = (row: unknown): MessageRow => readMessageRow(codec, row);

  return {
    async append(sessionId, m) {
      const parts = codec.json(m.parts);
      const kind = m.kind ?? null;
      const callId = m.callId ?? null;
      const checksum = messageChecksum(m.role, kind, callId, parts);
      const written = await db.withLock(LOCK_SESSION, [sessionId], async (tx) =>
        tx.get(INSERT, [sessionId, m.role, parts, m.turn, kind, callId, now(), checksum, partsJsonBytes(parts) ?? null]),
      );
      if (written === undefined) throw new Error(`no row was returned for a message of session ${sessionId}`);
      // The caller holds the message already: only what the database decided is read back (a full
      // re-read would parse, restore and validate the parts again on every append).
      const row: MessageRow = { id: written.id, sessionId, seq: written.seq, role: m.role, parts: m.parts, turn: m.turn, createdAt: written.created_at };
      if (m.kind !== undefined) row.kind = m.kind;
      if (m.callId !== undefined) row.callId = m.callId;
      return row;
    },
    async list(sessionId, fromSeq = 1) {
      return (await db.all(FROM_SEQ, [sessionId, fromSeq])).map(read);
    },
    async heads(sessionId) {
      return (await db.all(heads, [sessionId])).map(readMessageHead);
    },
    async listSeqs(sessionId, seqs) {
      return (await db.all(BY_SEQS, [sessionId, db.dialect.listValue(seqs)])).map(read);
    },
    async count(sessionId) {
      return Number((await db.get(COUNT, [sessionId]))?.n ?? 0);
    },
  };
}
