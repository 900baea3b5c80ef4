// The one error type the store throws. Every throw carries a code so the CLI can print one clear line
// (and tests can assert the reason) without matching message text.

export type StoreErrorCode =
  | 'MIGRATION_EDITED'
  | 'MIGRATION_UNKNOWN'
  | 'MIGRATION_SEQUENCE'
  | 'MIGRATION_FAILED'
  | 'OPEN_FAILED'
  /** A PostgreSQL server could not be reached or refused the login (the message says which, with a hint). */
  | 'CONNECT_FAILED'
  /**
   * The database failed under a call (full, an I/O error, a lost PostgreSQL connection): the store
   * stopped, and the run with it, as a crash would (see failStop.ts).
   */
  | 'STORE_FAILED'
  | 'NOT_FOUND'
  | 'CORRUPT_ROW';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}
