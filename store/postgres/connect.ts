// Connecting to a PostgreSQL database: a `pg` pool on the connection string as given (so its TLS
// options pass through), a first connection that turns any failure into one clear line
// (connectErrors.ts), and the schema brought up to date (migrate.ts) before anything else runs.
// Columns come back in the forms the SQLite store returns: json as its text, timestamptz as an
// ISO-8601 UTC string with milliseconds, bigint ids as numbers.

import pg from 'pg';
import { StoreError } from '../errors.js';
import { migrationsFolder, readMigrations } from '../migrationFiles.js';
import { connectFailure } from './connectErrors.js';
import { migratePostgres } from './migrate.js';
import { parsePostgresUrl, scrubSecrets, type PostgresTarget } from './url.js';

export interface PostgresConnectOptions {
  /** Where the NNNN_name.sql files are; defaults to the packaged `migrations/postgres/`. */
  migrationsDir?: string;
  /** How long the first connection may take before it counts as unreachable (default 10 s). */
  connectTimeoutMs?: number;
  /** Connections the pool may hold (default 10). */
  maxConnections?: number;
  /** The process environment for PG* defaults (tests pass their own). */
  env?: NodeJS.ProcessEnv;
}

export interface PostgresConnection {
  readonly target: PostgresTarget;
  readonly pool: pg.Pool;
  /** The migration files this connection applied (empty when the schema was up to date). */
  readonly applied: readonly string[];
  close(): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

const OID = { int8: 20, json: 114, timestamp: 1114, timestamptz: 1184 } as const;

/** Type parsers for this pool only (pg's global ones are left alone). */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === OID.json) return (text: string) => text;
    if (oid === OID.timestamptz || oid === OID.timestamp) {
      const parseDate = pg.types.getTypeParser(oid, 'text') as (text: string) => Date;
      return (text: string) => parseDate(text).toISOString();
    }
    if (oid === OID.int8) return (text: string) => safeInteger(text);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** Connects, migrates, and returns the pool; a failure is a StoreError whose message shows no password. */
export async function connectPostgres(url: string, opts: PostgresConnectOptions = {}): Promise<PostgresConnection> {
  const target = parsePostgresUrl(url, opts.env);
  const files = readMigrations(opts.migrationsDir ?? migrationsFolder('postgres'));
  const timeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({
      connectionString: target.url,
      connectionTimeoutMillis: timeoutMs,
      max: opts.maxConnections ?? 10,
      application_name: 'squadron',
      types,
    });
  } catch (err) {
    // pg reads sslrootcert/sslcert/sslkey files while parsing the string.
    throw connectFailure(err, target, timeoutMs);
  }
  // An idle connection the server drops (restart, idle timeout) must not crash the process; the
  // next query on the pool opens a fresh one.
  pool.on('error', () => undefined);

  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw connectFailure(err, target, timeoutMs);
  }
  try {
    const { applied } = await migratePostgres(client, files, target.display);
    client.release();
    return { target, pool, applied, close: () => pool.end() };
  } catch (err) {
    client.release(true);
    await pool.end().catch(() => undefined);
    if (err instanceof StoreError) throw new StoreError(err.code, scrubSecrets(err.message, target), { cause: err });
    const reason = err instanceof Error ? err.message : String(err);
    throw new StoreError('MIGRATION_FAILED', `cannot prepare the schema of ${target.display}: ${scrubSecrets(reason, target)}`, { cause: err });
  }
}

function safeInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new StoreError('CORRUPT_ROW', `integer ${text} is beyond what the store can read exactly`);
  return n;
}
