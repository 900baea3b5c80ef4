// Messages: a session's conversation in order. Each append takes the next sequence number in the
// same statement, so two writers can never produce the same seq.

import type { Part } from '../../runtime/providers/types.js';
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
     RETURNING *`,
  );
  const bySession = db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY seq');
  const count = db.prepare<[string], number>('SELECT COUNT(*) FROM messages WHERE session_id = ?').pluck();

  const read = (row: unknown): MessageRow => toMessageRow(codec, parseRow(RawMessage, 'messages', row));

  return {
    append(sessionId, m) {
      const row = insert.get({
        session: sessionId,
        role: m.role,
        parts: codec.json(m.parts),
        turn: m.turn,
        kind: m.kind ?? null,
        callId: m.callId ?? null,
        createdAt: now(),
      });
      return read(row);
    },
    list(sessionId) {
      return bySession.all(sessionId).map(read);
    },
    count(sessionId) {
      return count.get(sessionId) ?? 0;
    },
  };
}
