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
  /** Another process holds the database locked (SQLite's busy timeout ran out): nothing was done; try again once it is done. */
  | 'DATABASE_BUSY'
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

const BUSY = /^SQLITE_(BUSY|LOCKED)(_|$)/;

/** Whether a driver error says another connection holds the database locked. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && BUSY.test(code);
}

/** The one message for a database another process holds locked. */
export function heldByAnotherProcess(where: string, error: unknown): StoreError {
  const detail = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  return new StoreError('DATABASE_BUSY', `the database ${where} is held by another process: ${detail}${typeof code === 'string' ? ` (${code})` : ''}; wait for it to finish or stop it, then try again`, { cause: error });
}
