// The PostgreSQL driver of store/sql/driver.ts: pg, asynchronous, on the pool or on a transaction's
// client (context.ts's Sql, which names each distinct text as a prepared statement).

import { POSTGRES } from '../sql/dialect.js';
import type { Driver } from '../sql/driver.js';
import type { PgRepoContext, Sql } from './context.js';

export function postgresDriver(sql: Sql, atomic: PgRepoContext['atomic'], inTransaction: boolean): Driver {
  const driver: Driver = {
    dialect: POSTGRES,
    async all(s, values) {
      return (await sql.query(s.compileFor('postgres').text, values)).rows as never;
    },
    async get(s, values) {
      return (await sql.query(s.compileFor('postgres').text, values)).rows[0] as never;
    },
    async run(s, values) {
      return (await sql.query(s.compileFor('postgres').text, values)).rowCount;
    },
    withLock: (s, values, fn) =>
      driver.atomic(async (tx) => {
        await tx.run(s, values);
        return fn(tx);
      }),
    atomic: (fn) => (inTransaction ? fn(driver) : atomic((tx) => fn(postgresDriver(tx, (f) => f(tx), true)))),
    inTransaction: () => inTransaction,
    hasColumn: () => true,
    prepare: () => undefined,
  };
  return driver;
}
