// Messages: a session's conversation in order. Each append takes the next sequence number in the
// same statement, so two writers can never produce the same seq, and stores the row's checksum so a
// long conversation is read back without validating every part again (see rowChecksum.ts).

import type { Part } from '../../core/messages.js';
import { messageChecksum } from '../rowChecksum.js';
import { partsJsonBytes, readMessageHead, readMessageRow } from '../rowReaders.js';
import type { MessageRow } from '../rows.js';
import type { RepoContext } from './context.js';
import type { MessagesRepo } from '../repos/messages.js';

/**
 * A session's message heads and their parts' sizes: read from the messages_heads index alone (0006,
 * 0014), never from the rows and their parts; without sizes on a schema before 0014 (opened read-only).
 */
const headsSql = (sized: boolean): string => `SELECT id, seq, role, turn, kind, call_id${sized ? ', parts_bytes' : ''} FROM messages WHERE session_id = ? ORDER BY seq`;
export const HEADS_SQL = headsSql(true);

export function createMessagesRepo({ db, codec, now }: RepoContext): MessagesRepo {
  // A database of an older schema opened read-only (read as it is) may have no checksum column (its
  // rows are then all validated) or no parts_bytes (its heads carry no sizes); nothing is appended to it.
  const columns = new Set(db.prepare<[], string>("SELECT name FROM pragma_table_info('messages')").pluck().all());
  const checksummed = columns.has('checksum');
  const sized = columns.has('parts_bytes');
  const insert = db.prepare(
    `INSERT INTO messages (session_id, seq, role, parts_json, turn, kind, call_id, created_at${checksummed ? ', checksum' : ''}${sized ? ', parts_bytes' : ''})
     SELECT @session, COALESCE(MAX(seq), 0) + 1, @role, @parts, @turn, @kind, @callId, @createdAt${checksummed ? ', @checksum' : ''}${sized ? ', @partsBytes' : ''}
     FROM messages WHERE session_id = @session
     RETURNING id, seq, created_at`,
  );
  const bySession = db.prepare('SELECT * FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq');
  const headsBySession = db.prepare(headsSql(sized));
  const bySeqs = db.prepare('SELECT * FROM messages WHERE session_id = ? AND seq IN (SELECT value FROM json_each(?)) ORDER BY seq');
  const count = db.prepare<[string], number>('SELECT COUNT(*) FROM messages WHERE session_id = ?').pluck();

  const read = (row: unknown): MessageRow => readMessageRow(codec, row);

  return {
    async append(sessionId, m) {
      const parts = codec.json(m.parts);
      const kind = m.kind ?? null;
      const callId = m.callId ?? null;
      const written = insert.get({
        session: sessionId,
        role: m.role,
        parts,
        turn: m.turn,
        kind,
        callId,
        createdAt: now(),
        ...(checksummed ? { checksum: messageChecksum(m.role, kind, callId, parts) } : {}),
        ...(sized ? { partsBytes: partsJsonBytes(parts) ?? null } : {}),
      }) as { id: number; seq: number; created_at: string };
      // The caller holds the message already: only what the database decided is read back (a full
      // re-read would parse, restore and validate the parts again on every append).
      const row: MessageRow = { id: written.id, sessionId, seq: written.seq, role: m.role, parts: m.parts, turn: m.turn, createdAt: written.created_at };
      if (m.kind !== undefined) row.kind = m.kind;
      if (m.callId !== undefined) row.callId = m.callId;
      return row;
    },
    async list(sessionId, fromSeq = 1) {
      return bySession.all(sessionId, fromSeq).map(read);
    },
    async heads(sessionId) {
      return headsBySession.all(sessionId).map(readMessageHead);
    },
    async listSeqs(sessionId, seqs) {
      return bySeqs.all(sessionId, JSON.stringify(seqs)).map(read);
    },
    async count(sessionId) {
      return count.get(sessionId) ?? 0;
    },
  };
}

