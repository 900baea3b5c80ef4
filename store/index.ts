// Public face of the store: open it, the Store interface, its error, the redactor, and row types.

export { openStore } from './sqlite/open.js';
export { openDatabase } from './openDatabase.js';
export type { OpenDatabaseOptions } from './openDatabase.js';
export { shownDatabase, shownPostgresUrl } from './postgres/url.js';
export type { OpenStoreOptions } from './sqlite/open.js';
export { makePrivateDirs } from './privateDirs.js';
export type { Store } from './store.js';
export { StoreError } from './errors.js';
export { failStopOf, isStorageFailure, type FailStop } from './failStop.js';
export type { StoreErrorCode } from './errors.js';
export { createSecretRedactor, identityRedactor, MIN_SECRET_LENGTH, SecretValueError } from './redact.js';
export type { Redactor, SecretValue } from './redact.js';
export { newId } from './ids.js';
export { storedPartsBytes } from './rowReaders.js';
export { readMigrations, migrationChecksum, migrationsFolder } from './migrationFiles.js';
export type { Backend, MigrationFile } from './migrationFiles.js';
export { DEFAULT_LEASE_STALE_MS } from './repos/leases.js';
export { isProcessAlive, isStale } from './leaseRules.js';
export type { RunsRepo } from './repos/runs.js';
export type { TasksRepo } from './repos/tasks.js';
export type { ItemsRepo } from './repos/items.js';
export type { SessionsRepo, OpenSession } from './repos/sessions.js';
export type { MessagesRepo, NewMessage } from './repos/messages.js';
export type { LedgerRepo, StartedCall } from './repos/ledger.js';
export type { TurnsRepo, TurnRecord } from './repos/turns.js';
export type { EventsRepo, NewEvent } from './repos/events.js';
export type { RoutesRepo } from './repos/routes.js';
export type { StoredResultsRepo } from './repos/storedResults.js';
export type { HistoryPruned, HistoryPrunePolicy, ServiceHistoryRepo } from './repos/serviceHistory.js';
export type { ContextViewsRepo, ContextViewRow, ContextViewKind, NewContextView } from './repos/contextViews.js';
export type { OperatorRequestsRepo, OperatorRequestRow, NewOperatorRequest, OperatorDecision } from './repos/operatorRequests.js';
export type { LeasesRepo, LeaseOwner, AcquireResult } from './repos/leases.js';
export type { BudgetsRepo, BudgetAmount, BudgetHolder, ScopeTotals } from './repos/budgets.js';
export type { UnitsRepo, UnitRow, UnitKey, UnitKind, UnitState, ClaimFilter, QueueSignal } from './repos/units.js';
export { RUN_STATUSES, TASK_STATUSES, SESSION_STATUSES } from '../core/statuses.js';
export type {
  RunRow,
  RunConfig,
  RunVariables,
  RunBudget,
  WorkspaceIdentity,
  ConfigChangeRecord,
  ForkPoint,
  RunSummary,
  RunStatus,
  UsageTotals,
  TaskRow,
  ItemRow,
  ItemStatus,
  TaskStatus,
  SessionRow,
  SessionRole,
  SessionStatus,
  MessageHead,
  MessageRow,
  LedgerRow,
  LedgerStatus,
  EventRow,
  RouteRow,
  RouteKind,
  LeaseRow,
} from './rows.js';
export type { ForksRepo, ForkCopy, ForkedSession } from './repos/forks.js';
