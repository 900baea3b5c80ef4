// A preload for crash tests: loaded into the CLI with `NODE_OPTIONS=--import <dist path of this
// file>`, it kills its own process with SIGKILL right after the k-th write to one SQLite table has
// executed, e.g. SQUADRON_TEST_CRASH_AFTER=events:17. The runtime emits an event (one INSERT) at every
// step, so this stops a run at an exact, repeatable point of its own code — between a tool's ledger
// completion and the next message, inside the commander's completing turn, between tasks — without
// timing. It wraps better-sqlite3's `prepare`, so the runtime itself carries no test hook.

import { createRequire } from 'node:module';

export const CRASH_AFTER_ENV = 'SQUADRON_TEST_CRASH_AFTER';

interface StatementLike {
  run(...args: unknown[]): unknown;
  get(...args: unknown[]): unknown;
  all(...args: unknown[]): unknown;
}

interface DatabaseClass {
  prototype: { prepare(this: unknown, sql: string): StatementLike };
}

/** `events:17` → right after the 17th write statement that mentions table `events`; `runs:1:before` → just before the first. */
export function parseCrashSpec(spec: string): { table: string; count: number; before: boolean } | undefined {
  const match = /^([a-z_]+):(\d+)(:before)?$/.exec(spec.trim());
  if (!match) return undefined;
  const count = Number(match[2]);
  return count >= 1 ? { table: match[1]!, count, before: match[3] !== undefined } : undefined;
}

function install(spec: { table: string; count: number; before: boolean }): void {
  // Resolved from this file's location: the same module instance the CLI loads.
  const Database = createRequire(import.meta.url)('better-sqlite3') as DatabaseClass;
  const prepare = Database.prototype.prepare;
  const writes = new RegExp(`^\\s*(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${spec.table}\\b`, 'i');
  let seen = 0;
  Database.prototype.prepare = function prepareWithCrash(this: unknown, sql: string): StatementLike {
    const statement = prepare.call(this, sql);
    if (!writes.test(sql)) return statement;
    for (const method of ['run', 'get', 'all'] as const) {
      const original = statement[method];
      statement[method] = function crashAfter(this: unknown, ...args: unknown[]): unknown {
        if (spec.before && seen + 1 === spec.count) process.kill(process.pid, 'SIGKILL');
        const result = original.apply(this, args);
        seen += 1;
        if (seen === spec.count) process.kill(process.pid, 'SIGKILL');
        return result;
      };
    }
    return statement;
  };
}

const raw = process.env[CRASH_AFTER_ENV];
if (raw !== undefined && raw !== '') {
  const spec = parseCrashSpec(raw);
  if (!spec) throw new Error(`${CRASH_AFTER_ENV}=${raw}: expected <table>:<count>, e.g. events:17`);
  install(spec);
}
