// Connection failures are one clear line naming the server by its redacted URL, with a hint, and
// never the password; the connection string's own options (TLS) reach the driver unchanged.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../../store/index.js';
import { connectPostgres, parsePostgresUrl } from '../../../store/postgres/index.js';
import { freePort, startPostgres, TEST_PG_PASSWORD, TEST_PG_USER, type TestPostgres } from '../../support/postgres.js';

let server: TestPostgres;

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await server?.stop();
});

async function failure(url: string): Promise<StoreError> {
  try {
    const connection = await connectPostgres(url, { env: {} });
    await connection.close();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('connectPostgres succeeded but should have failed');
}

const SECRET = 'hunter2-very-secret';

describe('connecting to PostgreSQL', () => {
  it('names a refused connection (nothing on the port) with a hint, the password masked', async () => {
    const port = await freePort();
    const err = await failure(`postgres://squadron:${SECRET}@127.0.0.1:${port}/db`);
    expect(err.code).toBe('CONNECT_FAILED');
    expect(err.message).toBe(
      `cannot connect to PostgreSQL at postgres://squadron:***@127.0.0.1:${port}/db: connection refused by 127.0.0.1:${port}; is the server running, and are the host and port right?`,
    );
  });

  it('names a wrong password for the user, without showing either password', async () => {
    const url = server.url('postgres', { password: SECRET });
    const err = await failure(url);
    expect(err.code).toBe('CONNECT_FAILED');
    expect(err.message).toBe(
      `cannot connect to PostgreSQL at postgres://${TEST_PG_USER}:***@127.0.0.1:${server.port}/postgres: password authentication failed for user "${TEST_PG_USER}"; check the user and password in the connection string (or PGPASSWORD)`,
    );
    expect(err.message).not.toContain(SECRET);
    expect(err.message).not.toContain(TEST_PG_PASSWORD);
  });

  it('names a missing database and how to create it', async () => {
    const err = await failure(server.url('no_such_db'));
    expect(err.message).toBe(
      `cannot connect to PostgreSQL at postgres://${TEST_PG_USER}:***@127.0.0.1:${server.port}/no_such_db: database "no_such_db" does not exist; create it (createdb -h 127.0.0.1 -p ${server.port} -U ${TEST_PG_USER} no_such_db) or fix the database name`,
    );
    expect(err.message).not.toContain(TEST_PG_PASSWORD);
  });

  it('passes sslmode through to the driver: TLS asked of a server without it is a clear line', async () => {
    const err = await failure(`${server.url('postgres')}?sslmode=verify-full`);
    expect(err.message).toBe(
      `cannot connect to PostgreSQL at postgres://${TEST_PG_USER}:***@127.0.0.1:${server.port}/postgres?sslmode=verify-full: the server does not accept TLS, which the connection string asks for (sslmode); drop sslmode, or set sslmode=disable if an unencrypted connection is acceptable`,
    );
  });

  it('names a missing sslrootcert file', async () => {
    const err = await failure(`${server.url('postgres')}?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem`);
    expect(err.message).toMatch(/: cannot read \/nonexistent\/ca\.pem named in the connection string \(sslrootcert, sslcert or sslkey\): no such file$/);
    expect(err.message).not.toContain(TEST_PG_PASSWORD);
  });

  it('connects with the right credentials and reports the redacted form as its name', async () => {
    const url = await server.createDatabase();
    const connection = await connectPostgres(url);
    try {
      expect(connection.target.display).toMatch(new RegExp(`^postgres://${TEST_PG_USER}:\\*\\*\\*@127\\.0\\.0\\.1:${server.port}/test_\\w+$`));
      const { rows } = await connection.pool.query<{ one: number }>('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await connection.close();
    }
  });
});

describe('PostgreSQL connection strings', () => {
  it('shows user, host, port and database, the password as ***', () => {
    const t = parsePostgresUrl('postgresql://ana:p%40ss%2Fword@db.example.com/squadron?sslmode=verify-full&sslrootcert=/etc/ca.pem', {});
    expect(t.display).toBe('postgres://ana:***@db.example.com:5432/squadron?sslmode=verify-full&sslrootcert=/etc/ca.pem');
    expect(t).toMatchObject({ user: 'ana', host: 'db.example.com', port: 5432, database: 'squadron' });
    expect(t.secrets).toEqual(expect.arrayContaining(['p@ss/word', 'p%40ss%2Fword']));
  });

  it('masks a password given as a parameter, and shows no *** when there is no password', () => {
    expect(parsePostgresUrl('postgres://ana@10.0.0.5:6432/db?password=s3cret-value&application_name=x', {}).display).toBe('postgres://ana@10.0.0.5:6432/db?password=***&application_name=x');
    expect(parsePostgresUrl('postgres://ana@localhost/db', {}).display).toBe('postgres://ana@localhost:5432/db');
  });

  it('fills what the string leaves out as libpq does (PGUSER, PGHOST, PGPORT, the database named after the user)', () => {
    const t = parsePostgresUrl('postgres://', { PGUSER: 'bo', PGHOST: 'pg.internal', PGPORT: '6000' });
    expect(t.display).toBe('postgres://bo@pg.internal:6000/bo');
  });

  it('refuses a malformed string without echoing its password', () => {
    let message = '';
    try {
      parsePostgresUrl('postgres://ana:s3cret-value@host:99999/db', {});
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('postgres://***@host:99999/db is not a PostgreSQL connection string; expected postgres://user:password@host:port/database');
  });
});
