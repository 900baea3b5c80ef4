// The Store interface the runtime codes against: one repository per concern, every method
// synchronous, no SQL outside store/.

import type { Redactor } from './redact.js';
import type { EventsRepo } from './repos/events.js';
import type { LedgerRepo } from './repos/ledger.js';
import type { LeasesRepo } from './repos/leases.js';
import type { MessagesRepo } from './repos/messages.js';
import type { RoutesRepo } from './repos/routes.js';
import type { RunsRepo } from './repos/runs.js';
import type { SessionsRepo } from './repos/sessions.js';
import type { StoredResultsRepo } from './repos/storedResults.js';
import type { TasksRepo } from './repos/tasks.js';
import type { TurnsRepo } from './repos/turns.js';

export interface Store {
  /** Absolute path of the database file (or `:memory:`). */
  readonly path: string;
  close(): void;
  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE; a savepoint when nested). */
  transaction<T>(fn: () => T): T;
  /**
   * The same connection with another redactor for the columns it reads and writes (the repositories
   * are prepared again; closing either closes both). Lets one open serve a caller that learns the
   * secrets only after reading the run, as resume does.
   */
  withRedactor(redactor: Redactor): Store;
  /** Folds the WAL into the main file and truncates it (e.g. before copying the file). */
  checkpoint(): void;
  runs: RunsRepo;
  tasks: TasksRepo;
  sessions: SessionsRepo;
  messages: MessagesRepo;
  ledger: LedgerRepo;
  turns: TurnsRepo;
  events: EventsRepo;
  routes: RoutesRepo;
  leases: LeasesRepo;
  storedResults: StoredResultsRepo;
}
