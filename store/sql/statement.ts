// One SQL statement, written once for both backends. Its text is PostgreSQL's: `$1`, `$2`, …
// parameters, each optionally typed with a cast written right after it (`$3::json`, `$1::text[]`).
// For SQLite the same text is rewritten once (compileFor): every `$n::type` becomes `?` (SQLite's
// parameters are untyped) and the values are bound in the order the text names them, so one value
// may be named twice. A statement whose text truly differs per backend (an advisory lock, an array
// parameter) is a function of the dialect, evaluated once per backend; dialect.ts holds the pieces
// that differ.
//
// `P` is the tuple of parameter values and `R` the row a read returns (derived from the zod row
// schema of rowSchemas.ts where the row is a table's): a caller that binds the wrong values or reads
// a column the statement does not return does not compile.

import type { DialectName } from './dialect.js';

/** What a driver runs: the statement's text for one backend, and how to order the values for it. */
export interface Compiled {
  readonly text: string;
  /** The index into the values of each parameter the text names, in order; null when it is 0, 1, 2, … */
  readonly order: readonly number[] | null;
}

export interface Statement<P extends readonly unknown[] = readonly unknown[], R = Record<string, unknown>> {
  /** The source as written (or its PostgreSQL form, for a statement written per dialect). */
  readonly source: string;
  compileFor(dialect: DialectName): Compiled;
  /** Type-only: the values and row the statement takes and returns. */
  readonly __types?: { params: P; row: R };
}

/** Any statement, whatever it binds and returns. */
export type AnyStatement = Pick<Statement, 'source' | 'compileFor'>;

type Source = string | ((dialect: DialectName) => string);

/** A statement with parameters `P` returning rows `R` (`R` is unused for a write without RETURNING). */
export function sql<P extends readonly unknown[] = readonly unknown[], R = Record<string, unknown>>(source: Source): Statement<P, R> {
  const compiled: Partial<Record<DialectName, Compiled>> = {};
  const textFor = (dialect: DialectName): string => (typeof source === 'string' ? source : source(dialect));
  return {
    source: textFor('postgres'),
    compileFor(dialect) {
      return (compiled[dialect] ??= dialect === 'postgres' ? { text: textFor(dialect), order: null } : toSqlite(textFor(dialect)));
    },
  };
}

/** `$n` (and `$n::type`) to SQLite's `?`, with the order of the values the `?`s take. */
const PARAM = /\$(\d+)(?:::[a-z_ ]+(?:\[\])?)?/g;

function toSqlite(text: string): Compiled {
  const order: number[] = [];
  const out = text.replace(PARAM, (_m, n: string) => {
    order.push(Number(n) - 1);
    return '?';
  });
  const inOrder = order.every((n, i) => n === i);
  return { text: out, order: inOrder ? null : order };
}

/** The values for a compiled statement, reordered (or repeated) as its text names them. */
export function bindValues(compiled: Compiled, values: readonly unknown[]): readonly unknown[] {
  return compiled.order === null ? values : compiled.order.map((i) => values[i]);
}
