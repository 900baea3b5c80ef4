// Forks: copies what a forked run keeps of its parent (finished tasks with their items, sessions,
// messages, ledger, approvals, stored results, model turns and route decisions) into the child run,
// in the caller's transaction. Which rows to keep is the runtime's decision, passed in as data.

import type { ForkPoint } from '../rows.js';

/** One parent session copied into the child under a new id, whole or up to a message. */
export interface ForkedSession {
  from: string;
  to: string;
  /** Cut the session here: only messages with a smaller seq, turns before `beforeTurn`, tool calls and approvals of `callIds`. */
  cut?: { beforeSeq: number; beforeTurn: number; callIds: string[]; before: string };
}

export interface ForkCopy {
  parentId: string;
  childId: string;
  fork: ForkPoint;
  /** Tasks copied as they finished (rows and items). */
  tasks: string[];
  /** The task forked at a turn: its row is copied as running, so resume continues its cut sessions. */
  runningTask?: string;
  sessions: ForkedSession[];
}

export interface ForksRepo {
  /** Copies the rows and records the child's parent and fork point (run it inside a transaction). */
  copy(plan: ForkCopy): Promise<void>;
}
