// INSERT statements derived from the zod row schemas of rowSchemas.ts: a table's columns are
// declared once, in its schema; the statement's column list is read from the schema when first
// compiled, and the values a writer passes are typed by it (an object literal of the row, so a column
// the schema gains and the writer does not set fails to compile, and so does a misspelt one).

import type { z } from 'zod';
import type { LazySchema } from '../rowSchemas.js';
import type { DialectName } from './dialect.js';
import { sql, type Statement } from './statement.js';

/** An INSERT of one row of `Row` (returning `R`, if it has a RETURNING clause). */
export interface Insert<Row, R = unknown> {
  readonly statement: Statement<readonly unknown[], R>;
  /** The values of `row` in the statement's column order. */
  values(row: Row): unknown[];
}

type Shape<S> = S extends z.ZodObject<infer T> ? T : never;
type RowOf<S extends z.ZodObject> = z.input<S>;

/**
 * `INSERT INTO table (every column of the schema but `omit`) VALUES ($1, …)`, then `tail` (an ON
 * CONFLICT clause, a RETURNING clause) as written or per dialect.
 */
export function insertFrom<S extends z.ZodObject, O extends keyof Shape<S> & string = never, R = unknown>(
  table: string,
  schema: LazySchema<S>,
  opts: { omit?: readonly O[]; tail?: string | ((dialect: DialectName) => string) } = {},
): Insert<Omit<RowOf<S>, O>, R> {
  let columns: string[] | undefined;
  const columnsOf = (): string[] => (columns ??= Object.keys(schema().shape).filter((c) => !(opts.omit ?? []).includes(c as O)));
  const text = (dialect: DialectName): string => {
    const names = columnsOf();
    const tail = typeof opts.tail === 'function' ? opts.tail(dialect) : (opts.tail ?? '');
    return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_c, i) => `$${i + 1}`).join(', ')})${tail ? ` ${tail}` : ''}`;
  };
  return {
    statement: sql<readonly unknown[], R>(text),
    values(row) {
      const record = row as Record<string, unknown>;
      return columnsOf().map((c) => record[c]);
    },
  };
}
