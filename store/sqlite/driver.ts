// The SQLite driver of store/sql/driver.ts: better-sqlite3, synchronous. Each statement is prepared
// once per connection, on first use (or when the repository is made, in eager mode: a database of an
// older schema opened read-only then refuses what it cannot answer as it opens).

import type Database from 'better-sqlite3';
import { beginImmediate } from './begin.js';
import { SQLITE } from '../sql/dialect.js';
import type { Driver } from '../sql/driver.js';
import { bindValues, type AnyStatement, type Compiled } from '../sql/statement.js';

type Prepared = { compiled: Compiled; statement: Database.Statement<unknown[], unknown> };

export function sqliteDriver(db: Database.Database, opts: { lazy: boolean }): Driver {
  const prepared = new Map<AnyStatement, Prepared>();
  const columns = new Map<string, Set<string>>();
  const prepare = (s: AnyStatement): Prepared => {
    let p = prepared.get(s);
    if (p === undefined) {
      const compiled = s.compileFor('sqlite');
      p = { compiled, statement: db.prepare(compiled.text) };
      prepared.set(s, p);
    }
    return p;
  };
  const driver: Driver = {
    dialect: SQLITE,
    all(s, values) {
      const p = prepare(s);
      return p.statement.all(...bindValues(p.compiled, values)) as never;
    },
    get(s, values) {
      const p = prepare(s);
      return p.statement.get(...bindValues(p.compiled, values)) as never;
    },
    run(s, values) {
      const p = prepare(s);
      return p.statement.run(...bindValues(p.compiled, values)).changes;
    },
    // One writer at a time: the database's write lock already serialises what the lock is for.
    withLock: (_s, _values, fn) => fn(driver),
    async atomic(fn) {
      if (db.inTransaction) return fn(driver);
      await beginImmediate(db);
      try {
        const result = await fn(driver);
        db.exec('COMMIT');
        return result;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      }
    },
    inTransaction: () => db.inTransaction,
    hasColumn(table, column) {
      let names = columns.get(table);
      if (names === undefined) {
        names = new Set(db.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck().all(table));
        columns.set(table, names);
      }
      return names.has(column);
    },
    prepare(...statements) {
      if (!opts.lazy) for (const s of statements) prepare(s);
    },
  };
  return driver;
}
