// Messages: a session's conversation in order. Each append takes the next sequence number in the
// same statement, so two writers can never produce the same seq.

import type { Part } from '../../core/messages.js';
import { toMessageRow } from '../rowReaders.js';
import { parseRow, RawMessage } from '../rowSchemas.js';
import type { MessageRow } from '../rows.js';
import type { RepoContext } from './context.js';

export interface NewMessage {
  role: 'user' | 'assistant';
  parts: Part[];
  turn: number;
  /** Why the message exists (the runtime's vocabulary, e.g. `instruction`, `tool_results`). */
  kind?: string;
  /** For an instruction: the commander tool call that sent it. */
  callId?: string;
}

export interface MessagesRepo {
  /** seq = previous seq + 1 (starting at 1). */
  append(sessionId: string, m: NewMessage): MessageRow;
  /** By seq, parts parsed and validated. */
  list(sessionId: string): MessageRow[];
  count(sessionId: string): number;
}

export function createMessagesRepo({ db, codec, now }: RepoContext): MessagesRepo {
  const insert = db.prepare(
    `INSERT INTO messages (session_id, seq, role, parts_json, turn, kind, call_id, created_at)
     SELECT @session, COALESCE(MAX(seq), 0) + 1, @role, @parts, @turn, @kind, @callId, @createdAt
     FROM messages WHERE session_id = @session
     RETURNING id, seq, created_at`,
  );
  const bySession = db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY seq');
  const count = db.prepare<[string], number>('SELECT COUNT(*) FROM messages WHERE session_id = ?').pluck();

  const read = (row: unknown): MessageRow => toMessageRow(codec, parseRow(RawMessage, 'messages', row));

  return {
    append(sessionId, m) {
      const written = insert.get({
        session: sessionId,
        role: m.role,
        parts: codec.json(m.parts),
        turn: m.turn,
        kind: m.kind ?? null,
        callId: m.callId ?? null,
        createdAt: now(),
      }) as { id: number; seq: number; created_at: string };
      // The caller holds the message already: only what the database decided is read back (a full
      // re-read would parse, restore and validate the parts again on every append).
      const row: MessageRow = { id: written.id, sessionId, seq: written.seq, role: m.role, parts: m.parts, turn: m.turn, createdAt: written.created_at };
      if (m.kind !== undefined) row.kind = m.kind;
      if (m.callId !== undefined) row.callId = m.callId;
      return row;
    },
    list(sessionId) {
      return bySession.all(sessionId).map(read);
    },
    count(sessionId) {
      return count.get(sessionId) ?? 0;
    },
  };
}
