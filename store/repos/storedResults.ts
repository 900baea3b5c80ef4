// Stored results: large tool results kept whole and read by handle. Content-addressed: the handle is
// taken from the SHA-256 of the payload as stored (redacted), so a payload is stored once per run and
// gets the same handle whenever it comes back (a re-run after resume). Each session that may read a
// handle has a row; only the run's first row for a handle carries the payload.

import type { StoredPayload } from '../../core/storedResults.js';
import type { QuotedAnswer } from '../../core/toolResults.js';

export interface StoredResultsRepo {
  /**
   * Stores the payload for the session (a no-op when the session already holds it); returns its
   * handle. With `quotes` (the payload's text holds an agent's whole answer, JSON-escaped), the
   * answer is kept by reference to the agent's latest message when that message says exactly it.
   */
  put(r: { runId: string; sessionId: string; payload: StoredPayload; quotes?: QuotedAnswer }): Promise<{ handle: string; bytes: number }>;
  /** Lets session `to` read a handle `from` holds; false when `from` holds no such handle. */
  share(handle: string, from: string, to: string): Promise<boolean>;
  /** The payload, when the session may read the handle. */
  read(sessionId: string, handle: string): Promise<{ payload: StoredPayload; bytes: number } | undefined>;
  /** Whether the session holds at least one handle. */
  hasAny(sessionId: string): Promise<boolean>;
}
