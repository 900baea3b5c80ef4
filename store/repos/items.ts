// Items: the units of work of an iterated task, one row per (run, task, index), created together when
// the task starts and moved through their states one by one. A resumed run re-runs none that completed.

import type { ItemRow, ItemStatus } from '../rows.js';

export interface ItemsRepo {
  /** Creates items 0…count-1 of the task as 'pending' where they have no row yet (idempotent). */
  ensure(runId: string, task: string, count: number): Promise<void>;
  /** By index. */
  list(runId: string, task: string): Promise<ItemRow[]>;
  get(runId: string, task: string, index: number): Promise<ItemRow | undefined>;
  /** Keeps the first started_at; clears finished_at and error. */
  markRunning(runId: string, task: string, index: number): Promise<void>;
  complete(runId: string, task: string, index: number, r: { summary: string; output?: unknown }): Promise<void>;
  fail(runId: string, task: string, index: number, error: string): Promise<void>;
  /** A failed or cancelled item back to 'pending' for another attempt; returns the new attempt number. */
  retry(runId: string, task: string, index: number): Promise<number>;
  /** 'pending' and 'running' clear finished_at; the others set it. */
  setStatus(runId: string, task: string, index: number, status: ItemStatus): Promise<void>;
}
