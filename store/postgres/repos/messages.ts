// Messages on PostgreSQL: a session's conversation in order. Appends to one session are serialised
// by a row lock on the session (FOR NO KEY UPDATE, held until the transaction ends), so the next seq
// is read after every earlier append committed; the unique (session_id, seq) key stays the backstop.
// Each row carries its checksum (rowChecksum.ts), so it is read back without validating every part.

import { messageChecksum } from '../../rowChecksum.js';
import { partsJsonBytes, readMessageHead, readMessageRow } from '../../rowReaders.js';
import type { MessageRow } from '../../rows.js';
import type { MessagesRepo } from '../../repos/messages.js';
import type { PgRepoContext } from '../context.js';

export function createMessagesRepo({ sql, atomic, codec, now }: PgRepoContext): MessagesRepo {
  return {
    async append(sessionId, m) {
      const parts = codec.json(m.parts);
      const kind = m.kind ?? null;
      const callId = m.callId ?? null;
      const checksum = messageChecksum(m.role, kind, callId, parts);
      const written = await atomic(async (tx) => {
        // No session row means no lock to take; the insert then fails on the foreign key, as on SQLite.
        await tx.query('SELECT 1 FROM sessions WHERE id = $1 FOR NO KEY UPDATE', [sessionId]);
        const { rows } = await tx.query(
          `INSERT INTO messages (session_id, seq, role, parts_json, turn, kind, call_id, created_at, checksum, parts_bytes)
           SELECT $1::text, COALESCE(MAX(seq), 0) + 1, $2::text, $3::json, $4::integer, $5::text, $6::text, $7::timestamptz, $8::bigint, $9::integer
           FROM messages WHERE session_id = $1::text
           RETURNING id, seq, created_at`,
          [sessionId, m.role, parts, m.turn, kind, callId, now(), checksum, partsJsonBytes(parts) ?? null],
        );
        return rows[0] as { id: number; seq: number; created_at: string };
      });
      // The caller holds the message already: only what the database decided is read back.
      const row: MessageRow = { id: written.id, sessionId, seq: written.seq, role: m.role, parts: m.parts, turn: m.turn, createdAt: written.created_at };
      if (m.kind !== undefined) row.kind = m.kind;
      if (m.callId !== undefined) row.callId = m.callId;
      return row;
    },
    async list(sessionId, fromSeq = 1) {
      const { rows } = await sql.query('SELECT * FROM messages WHERE session_id = $1 AND seq >= $2 ORDER BY seq', [sessionId, fromSeq]);
      return rows.map((row) => readMessageRow(codec, row));
    },
    async heads(sessionId) {
      const { rows } = await sql.query('SELECT id, seq, role, turn, kind, call_id, parts_bytes FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId]);
      return rows.map(readMessageHead);
    },
    async listSeqs(sessionId, seqs) {
      const { rows } = await sql.query('SELECT * FROM messages WHERE session_id = $1 AND seq = ANY($2::integer[]) ORDER BY seq', [sessionId, [...seqs]]);
      return rows.map((row) => readMessageRow(codec, row));
    },
    async count(sessionId) {
      const { rows } = await sql.query('SELECT COUNT(*) AS n FROM messages WHERE session_id = $1', [sessionId]);
      return Number(rows[0]?.['n'] ?? 0);
    },
  };
}
