// Messages: a session's conversation in order. Each append takes the next sequence number in the
// same statement, so two writers can never produce the same seq, and stores the row's checksum so a
// long conversation is read back without validating every part again (see rowChecksum.ts).

import type { Part } from '../../core/messages.js';
import type { MessageHead, MessageRow } from '../rows.js';

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
  append(sessionId: string, m: NewMessage): Promise<MessageRow>;
  /** By seq, from `fromSeq` (default 1: all), parts parsed and validated. */
  list(sessionId: string, fromSeq?: number): Promise<MessageRow[]>;
  /**
   * By seq, without their parts: what a resume needs to find its place in a long conversation
   * without reading it (the parts of the few messages it needs are then read with `list`).
   */
  heads(sessionId: string): Promise<MessageHead[]>;
  /** The messages of the given seqs (any order; unknown ones are left out), by seq, parts as in `list`. */
  listSeqs(sessionId: string, seqs: readonly number[]): Promise<MessageRow[]>;
  count(sessionId: string): Promise<number>;
}
