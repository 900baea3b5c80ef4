// A PostgreSQL connection string as Squadron handles it: recognised (`postgres://` or
// `postgresql://`), parsed just enough to name the server in messages, and shown only in a redacted
// form (`postgres://user:***@host:port/db`). The string itself goes to `pg` unchanged, so its TLS
// and other options (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`, `application_name`, …) apply
// exactly as `pg` documents them. Nothing here imports `pg`: the CLI can use it at start-up.

import { userInfo } from 'node:os';
import { StoreError } from '../errors.js';

export interface PostgresTarget {
  /** The connection string as given, for `pg` only: it may hold a password, so it is never printed. */
  readonly url: string;
  /** The only form any message shows: the password (and any password parameter) as `***`. */
  readonly display: string;
  readonly user: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  /** Every secret in `url` (decoded and as written), so text that quotes one can be scrubbed. */
  readonly secrets: readonly string[];
}

const SCHEME = /^postgres(?:ql)?:\/\//i;
/** Query parameters that carry a secret (libpq's `password`, the TLS key's `sslpassword`). */
const SECRET_PARAMS = new Set(['password', 'sslpassword']);
const MASK = '***';

/** Whether a --db value (or SQUADRON_DB) names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(value: string): boolean {
  return SCHEME.test(value.trim());
}

/** Parses a connection string; a malformed one is a StoreError whose message shows no secret. */
export function parsePostgresUrl(value: string, env: NodeJS.ProcessEnv = process.env): PostgresTarget {
  const text = value.trim();
  let url: URL;
  try {
    if (!isPostgresUrl(text)) throw new Error('not a postgres URL');
    url = new URL(text);
  } catch {
    throw new StoreError('OPEN_FAILED', `${roughlyRedacted(text)} is not a PostgreSQL connection string; expected postgres://user:password@host:port/database`);
  }
  const params = url.searchParams;
  const user = decode(url.username) || params.get('user') || env['PGUSER'] || osUser();
  const host = url.hostname || params.get('host') || env['PGHOST'] || 'localhost';
  const portText = url.port || params.get('port') || env['PGPORT'] || '5432';
  const port = Number(portText);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new StoreError('OPEN_FAILED', `${roughlyRedacted(text)} has an invalid port ${portText}`);
  }
  const database = decode(url.pathname.replace(/^\//, '')) || params.get('dbname') || env['PGDATABASE'] || user;
  const secrets = new Set<string>();
  const addSecret = (s: string | null): void => {
    if (s === null || s === '') return;
    secrets.add(s);
    secrets.add(encodeURIComponent(s));
  };
  if (url.password !== '') {
    secrets.add(url.password);
    addSecret(decode(url.password));
  }
  for (const [key, v] of params) if (SECRET_PARAMS.has(key)) addSecret(v);
  return { url: text, display: displayForm(url, user, host, port, database), user, host, port, database, secrets: [...secrets].sort((a, b) => b.length - a.length) };
}

/** The redacted form of a connection string for a message, even of one that does not parse. */
export function shownPostgresUrl(value: string): string {
  try {
    return parsePostgresUrl(value).display;
  } catch {
    return roughlyRedacted(value.trim());
  }
}

/** Replaces every secret of `target` (and the raw connection string) in `text` by its masked form. */
export function scrubSecrets(text: string, target: PostgresTarget): string {
  let out = text.split(target.url).join(target.display);
  for (const secret of target.secrets) out = out.split(secret).join(MASK);
  return out;
}

function displayForm(url: URL, user: string, host: string, port: number, database: string): string {
  const who = url.password !== '' ? `${encodeURIComponent(user)}:${MASK}@` : `${encodeURIComponent(user)}@`;
  const hostPart = host.startsWith('/') ? `${encodeURIComponent(host)}` : host;
  const query = [...url.searchParams]
    .filter(([key]) => !['user', 'host', 'port', 'dbname'].includes(key))
    .map(([key, v]) => `${key}=${SECRET_PARAMS.has(key) ? MASK : v}`)
    .join('&');
  return `postgres://${who}${hostPart}:${port}/${encodeURIComponent(database)}${query === '' ? '' : `?${query}`}`;
}

/** For a string that did not parse: whatever sits between `://` and `@` is treated as a secret. */
function roughlyRedacted(text: string): string {
  return text.replace(/^([a-z]+:\/\/)[^@/]*@/i, `$1${MASK}@`).replace(/(password=)[^&]*/gi, `$1${MASK}`);
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'postgres';
  }
}

/** Any database location as messages show it: a connection string without its password, a SQLite path as it is. */
export function shownDatabase(db: string): string {
  return isPostgresUrl(db) ? shownPostgresUrl(db) : db;
}
