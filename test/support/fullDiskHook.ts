// A preload for full-disk tests: loaded into the CLI with `NODE_OPTIONS=--import <dist path of this
// file>`, it caps the SQLite database at its current size right after the k-th write to one table,
// e.g. SQUADRON_TEST_FULL_AFTER=events:17: SQLite's own `max_page_count`, so the next write that needs
// a new page fails with SQLITE_FULL exactly as on a full disk — no full disk needed, and the runtime
// carries no test hook. (`max_page_count` holds for the connection: the next process is not capped.)

import { createRequire } from 'node:module';
import { parseCrashSpec } from './crashHook.js';

export const FULL_AFTER_ENV = 'SQUADRON_TEST_FULL_AFTER';

interface DatabaseLike {
  pragma(source: string, options?: { simple?: boolean }): unknown;
}

interface StatementLike {
  readonly database: DatabaseLike;
  run(...args: unknown[]): unknown;
  get(...args: unknown[]): unknown;
  all(...args: unknown[]): unknown;
}

interface DatabaseClass {
  prototype: { prepare(this: unknown, sql: string): StatementLike };
}

function install(spec: { table: string; count: number }): void {
  const Database = createRequire(import.meta.url)('better-sqlite3') as DatabaseClass;
  const prepare = Database.prototype.prepare;
  const writes = new RegExp(`^\\s*(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${spec.table}\\b`, 'i');
  let seen = 0;
  Database.prototype.prepare = function prepareThenFill(this: unknown, sql: string): StatementLike {
    const statement = prepare.call(this, sql);
    if (!writes.test(sql)) return statement;
    for (const method of ['run', 'get', 'all'] as const) {
      const original = statement[method];
      statement[method] = function fillAfter(this: StatementLike, ...args: unknown[]): unknown {
        const result = original.apply(this, args);
        seen += 1;
        if (seen === spec.count) {
          const pages = Number(this.database.pragma('page_count', { simple: true }));
          this.database.pragma(`max_page_count = ${pages}`);
        }
        return result;
      };
    }
    return statement;
  };
}

const raw = process.env[FULL_AFTER_ENV];
if (raw !== undefined && raw !== '') {
  const spec = parseCrashSpec(raw);
  if (!spec) throw new Error(`${FULL_AFTER_ENV}=${raw}: expected <table>:<count>, e.g. events:17`);
  install(spec);
}
