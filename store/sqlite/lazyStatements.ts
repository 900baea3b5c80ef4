// Statements prepared when first used instead of when the store opens. A store prepares ~65
// statements for its repositories, and a command uses a handful of them (`resume` of a run, `inspect`
// of one): preparing them all was a visible share of opening the database on every CLI start. The
// repositories keep calling `db.prepare(sql)` once each; through `lazyStatements(db)` that returns a
// stand-in that prepares the real statement on its first call and delegates to it from then on.
//
// Only for a database whose schema is current (opened for writing, or read with nothing pending): a
// statement that cannot be prepared then is a bug, not a state of the file. A read-only database of an
// older schema keeps eager preparation, so that what it cannot answer is refused as it opens.

import type Database from 'better-sqlite3';

type Statement = Database.Statement<unknown[], unknown>;

/** `db` with `prepare` made lazy; every other method is the connection's own. */
export function lazyStatements(db: Database.Database): Database.Database {
  const prepare = (sql: string): Statement => new LazyStatement(db, sql) as unknown as Statement;
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

type Mode = 'pluck' | 'raw' | 'expand' | 'safeIntegers';

/**
 * better-sqlite3's Statement, prepared on first use. Its mode switches (`.pluck()` right after
 * `prepare`, as the repositories write it) are remembered and applied when it is prepared.
 */
class LazyStatement {
  private statement: Statement | undefined;
  private readonly modes: Array<[Mode, boolean | undefined]> = [];

  constructor(
    private readonly db: Database.Database,
    readonly source: string,
  ) {}

  private get real(): Statement {
    if (this.statement === undefined) {
      const statement = this.db.prepare(this.source);
      for (const [mode, toggle] of this.modes) setMode(statement, mode, toggle);
      this.statement = statement;
    }
    return this.statement;
  }

  private mode(mode: Mode, toggle: boolean | undefined): this {
    if (this.statement === undefined) this.modes.push([mode, toggle]);
    else setMode(this.statement, mode, toggle);
    return this;
  }

  get reader(): boolean {
    return this.real.reader;
  }

  run(...params: unknown[]): Database.RunResult {
    return this.real.run(...params);
  }

  get(...params: unknown[]): unknown {
    return this.real.get(...params);
  }

  all(...params: unknown[]): unknown[] {
    return this.real.all(...params);
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.real.iterate(...params);
  }

  columns(): Database.ColumnDefinition[] {
    return this.real.columns();
  }

  pluck(toggle?: boolean): this {
    return this.mode('pluck', toggle);
  }

  raw(toggle?: boolean): this {
    return this.mode('raw', toggle);
  }

  expand(toggle?: boolean): this {
    return this.mode('expand', toggle);
  }

  safeIntegers(toggle?: boolean): this {
    return this.mode('safeIntegers', toggle);
  }
}

/** better-sqlite3 refuses an explicit `undefined`: a switch without its argument turns the mode on. */
function setMode(statement: Statement, mode: Mode, toggle: boolean | undefined): void {
  if (toggle === undefined) statement[mode]();
  else statement[mode](toggle);
}
