// Everything that differs between SQLite and PostgreSQL in the statements of store/queries/, in one
// place. The statements themselves are written once (statement.ts: PostgreSQL's `$n` parameters,
// rewritten for SQLite); what cannot be written the same way is chosen here:
//   - parameters and casts: `$n::type` is PostgreSQL's; SQLite binds `?` untyped (statement.ts);
//   - booleans: SQLite stores 0/1, PostgreSQL `boolean` (`bool` writes, `flags` reads back as 0/1 so
//     both backends share the row schemas of rowSchemas.ts);
//   - locking: PostgreSQL takes row locks (`FOR NO KEY UPDATE`, `FOR UPDATE SKIP LOCKED`) and advisory
//     locks; SQLite has one writer at a time, so the same statements need none (`lockClause`, and the
//     drivers' `lock`, which runs nothing on SQLite);
//   - a list of values as one parameter: `= ANY($n::type[])` (an array) or `IN (SELECT value FROM
//     json_each(?))` (a JSON text) — `inList` and `listValue`;
//   - upserts (`ON CONFLICT … DO UPDATE … excluded.`) and `RETURNING` are written the same on both
//     (SQLite ≥ 3.35), so they need nothing here.

export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  readonly name: DialectName;
  /** A boolean as the backend's column stores it. */
  bool(value: boolean): boolean | number;
  /** A list bound as one parameter (see inList). */
  listValue(values: readonly (string | number)[]): unknown;
  /** The LIMIT value that means "no limit". */
  readonly noLimit: number | null;
  /**
   * Whether a parameter can be an array (PostgreSQL): a batch of rows is then one statement over
   * `unnest` of its columns; on SQLite it is one prepared insert per row, in one transaction.
   */
  readonly arrays: boolean;
}

export const SQLITE: Dialect = {
  name: 'sqlite',
  bool: (value) => (value ? 1 : 0),
  listValue: (values) => JSON.stringify(values),
  noLimit: -1,
  arrays: false,
};

export const POSTGRES: Dialect = {
  name: 'postgres',
  bool: (value) => value,
  listValue: (values) => [...values],
  noLimit: null,
  arrays: true,
};

/** `column` is one of the list bound at parameter `n` (of element type `type`: `text`, `integer`). */
export function inList(dialect: DialectName, column: string, n: number, type: 'text' | 'integer'): string {
  return dialect === 'postgres' ? `${column} = ANY($${n}::${type}[])` : `${column} IN (SELECT value FROM json_each($${n}))`;
}

/** A row-locking clause (`FOR UPDATE SKIP LOCKED`, …) on PostgreSQL; nothing on SQLite (one writer). */
export function lockClause(dialect: DialectName, clause: string): string {
  return dialect === 'postgres' ? ` ${clause}` : '';
}

/**
 * The row of an INSERT whose `values` (a list of `$n`) are written only once a transaction-scoped
 * advisory lock (class `lockClass`, key the text `key` hashed) is held, on PostgreSQL: `SELECT values
 * FROM (SELECT pg_advisory_xact_lock(…))`, the lock taken before the row (and its id) is made, after
 * the shared lock `(sharedClass, 0)` when one is given. On SQLite, whose single writer needs no lock,
 * plain `VALUES (values)` (cheaper than an INSERT … SELECT).
 */
export function advisoryLockedValues(dialect: DialectName, values: string, lockClass: number, key: string, sharedClass?: number): string {
  if (dialect !== 'postgres') return `VALUES (${values})`;
  const shared = sharedClass === undefined ? '' : `pg_advisory_xact_lock_shared(${sharedClass}, 0), `;
  return `SELECT ${values} FROM (SELECT ${shared}pg_advisory_xact_lock(${lockClass}, hashtext(${key}))) AS locked`;
}

/**
 * The column that orders rows created in the same millisecond, after their created_at: SQLite's
 * rowid (the insertion order); on PostgreSQL, whose created_at carries microseconds that increase
 * within the millisecond (the `stamp` of QueryContext), `column` only breaks what is left.
 */
export function creationTiebreak(dialect: DialectName, column: string): string {
  return dialect === 'sqlite' ? 'rowid' : column;
}

/**
 * The order rows were inserted in: SQLite's rowid; on PostgreSQL, which has none, `columns` (a
 * sequence, or a microsecond creation stamp and a tie-break).
 */
export function insertionOrder(dialect: DialectName, columns: string): string {
  return dialect === 'sqlite' ? 'rowid' : columns;
}

/** The name of a 64-bit integer or a double column type, for a CAST. */
export function sqlType(dialect: DialectName, type: 'bigint' | 'double'): string {
  if (dialect === 'postgres') return type === 'bigint' ? 'bigint' : 'double precision';
  return type === 'bigint' ? 'INTEGER' : 'REAL';
}

/** A row whose boolean columns are 0/1 (or null), as SQLite returns them. */
export function flags<R extends Record<string, unknown>>(row: R, ...names: string[]): R {
  let out: Record<string, unknown> | undefined;
  for (const name of names) {
    const value = row[name];
    if (typeof value === 'boolean') (out ??= { ...row })[name] = value ? 1 : 0;
  }
  return (out ?? row) as R;
}
