// The Store interface the runtime codes against: one repository per concern, every method async, no
// SQL outside store/. store/sqlite/ and store/postgres/ implement it.

import type { Redactor } from './redact.js';
import type { BudgetsRepo } from './repos/budgets.js';
import type { ContextViewsRepo } from './repos/contextViews.js';
import type { EventsRepo } from './repos/events.js';
import type { ForksRepo } from './repos/forks.js';
import type { ItemsRepo } from './repos/items.js';
import type { LedgerRepo } from './repos/ledger.js';
import type { LeasesRepo } from './repos/leases.js';
import type { MessagesRepo } from './repos/messages.js';
import type { OperatorRequestsRepo } from './repos/operatorRequests.js';
import type { RoutesRepo } from './repos/routes.js';
import type { RunsRepo } from './repos/runs.js';
import type { SessionsRepo } from './repos/sessions.js';
import type { StoredResultsRepo } from './repos/storedResults.js';
import type { TasksRepo } from './repos/tasks.js';
import type { TokensRepo } from './repos/tokens.js';
import type { WebhookDeliveriesRepo } from './repos/webhookDeliveries.js';
import type { RunCancelsRepo } from './repos/runCancels.js';
import type { SchedulesRepo } from './repos/schedules.js';
import type { ServiceHistoryRepo } from './repos/serviceHistory.js';
import type { TurnsRepo } from './repos/turns.js';
import type { UnitsRepo } from './repos/units.js';

export interface Store {
  /** Where the data lives: the database file's absolute path (or `:memory:`), or a connection URL with its password masked. */
  readonly path: string;
  close(): Promise<void>;
  /**
   * Runs `fn` in one write transaction and commits when its promise resolves (rolls back when it
   * rejects). `fn` must do its reads and writes through `tx`, the store bound to that transaction;
   * calls made meanwhile through the outer store are never part of it (SQLite queues them until the
   * transaction ends; PostgreSQL runs them on another pooled connection), so `fn` must never await
   * the outer store (on SQLite that waits forever). Nested calls on `tx` run in a savepoint.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * The same connection with another redactor for the columns it reads and writes (closing either
   * closes both). Lets one open serve a caller that learns the secrets only after reading the run, as
   * resume does.
   */
  withRedactor(redactor: Redactor): Store;
  /** SQLite: folds the WAL into the main file and truncates it (e.g. before copying the file). Elsewhere a no-op. */
  checkpoint(): Promise<void>;
  runs: RunsRepo;
  tasks: TasksRepo;
  items: ItemsRepo;
  sessions: SessionsRepo;
  messages: MessagesRepo;
  ledger: LedgerRepo;
  turns: TurnsRepo;
  events: EventsRepo;
  routes: RoutesRepo;
  leases: LeasesRepo;
  storedResults: StoredResultsRepo;
  /** The queue of units of work many runners share: PostgreSQL only (a SQLite run has one runner). */
  units?: UnitsRepo;
  contextViews: ContextViewsRepo;
  /** What a run's budgets have spent and hold reserved, shared by all its runners. */
  budgets: BudgetsRepo;
  /** What runs ask their operator: approvals of tool calls and questions. */
  operatorRequests: OperatorRequestsRepo;
  /** Copies a parent run's finished work into a forked child (`squadron fork`). */
  forks: ForksRepo;
  /** Bearer tokens of `squadron serve` (hashes only). */
  tokens: TokensRepo;
  /** Webhook deliveries `squadron serve` has seen (idempotency keys, signatures). */
  webhookDeliveries: WebhookDeliveriesRepo;
  runCancels: RunCancelsRepo;
  /** Schedule fires (one per schedule and time across servers) and pauses. */
  schedules: SchedulesRepo;
  /** Pruning what `serve` keeps beside its runs (delivery log, keys, signatures, fires, cancels). */
  serviceHistory: ServiceHistoryRepo;
}
