// Context views: how a long session's model request is cut down (compaction or pruning). A request is
// `head` (one user message) followed by the session's messages from seq `keepFrom` on; the newest
// view of a session applies. Stored so a resume rebuilds the exact request the model saw, and so
// inspect can show where and what was cut; the messages themselves are never deleted.

import type { Part } from '../../core/messages.js';

export type ContextViewKind = 'compaction' | 'pruning';

export interface NewContextView {
  kind: ContextViewKind;
  /** The session's last message seq when the view was made: the view is made for the request that ends there. */
  afterSeq: number;
  /** The first message seq sent verbatim. */
  keepFrom: number;
  /** The user message sent before the kept messages (the task, and what the dropped part held). */
  head: Part[];
  /** The input tokens (cached ones included) the request would have held uncut, as sized before it was sent. */
  inputTokens: number;
  /** Messages left out of the request by this view (before `keepFrom`). */
  dropped: number;
}

export interface ContextViewRow extends NewContextView {
  sessionId: string;
  /** 1, 2, … per session. */
  seq: number;
  createdAt: string;
}

export interface ContextViewsRepo {
  /** seq = previous seq + 1 (starting at 1). */
  record(sessionId: string, view: NewContextView): Promise<ContextViewRow>;
  /** The view that applies now, if the session was ever cut. */
  latest(sessionId: string): Promise<ContextViewRow | undefined>;
  /** Every view of the session, oldest first. */
  list(sessionId: string): Promise<ContextViewRow[]>;
}
