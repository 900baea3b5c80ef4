// Why a connection to PostgreSQL failed, as one line a user can act on: the server unreachable, the
// login refused, the database missing, TLS not agreed — each with a hint. The message names the
// server by its redacted URL and passes any text from the driver or server through scrubSecrets, so
// no password is ever shown.

import { StoreError } from '../errors.js';
import { scrubSecrets, type PostgresTarget } from './url.js';

interface DriverError {
  code?: string;
  message: string;
  path?: string;
}

const TLS_CERT_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The StoreError (code CONNECT_FAILED) for an error thrown while connecting to `target`. */
export function connectFailure(err: unknown, target: PostgresTarget, timeoutMs: number): StoreError {
  const e = asDriverError(err);
  const where = `${target.host}:${target.port}`;
  const line = (reason: string): StoreError =>
    new StoreError('CONNECT_FAILED', `cannot connect to PostgreSQL at ${target.display}: ${reason}`, { cause: err });
  switch (e.code) {
    case 'ECONNREFUSED':
      return line(`connection refused by ${where}; is the server running, and are the host and port right?`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return line(`host ${target.host} not found; check the host name`);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return line(`${where} is unreachable (${e.code}); check the host, the port and any firewall between`);
    case 'ENOENT':
      // A file error (fs) carries its path; a missing Unix socket (net) does not.
      return e.path !== undefined
        ? line(`cannot read ${e.path} named in the connection string (sslrootcert, sslcert or sslkey): no such file`)
        : line(`no server socket at ${target.host}; is the server running, and is the host right?`);
    case '28P01':
      return line(`password authentication failed for user "${target.user}"; check the user and password in the connection string (or PGPASSWORD)`);
    case '28000':
      return line(`the server refused user "${target.user}" (${scrub(e.message, target)}); check the user, and the server's pg_hba.conf for this host`);
    case '3D000':
      return line(`database "${target.database}" does not exist; create it (createdb -h ${target.host} -p ${target.port} -U ${target.user} ${target.database}) or fix the database name`);
    case '53300':
      return line('the server has no free connection slots (too many clients); lower the number of runners or raise max_connections');
    case '57P03':
      return line('the server is starting up or shutting down; try again in a moment');
    default:
      break;
  }
  if (e.code !== undefined && TLS_CERT_CODES.has(e.code)) {
    return line(`the server's TLS certificate was not accepted (${scrub(e.message, target)}); give its CA with sslrootcert=/path/to/ca.pem, or check the host name it was issued for`);
  }
  if (/does not support SSL/i.test(e.message)) {
    return line('the server does not accept TLS, which the connection string asks for (sslmode); drop sslmode, or set sslmode=disable if an unencrypted connection is acceptable');
  }
  if (/timeout/i.test(e.message)) {
    return line(`no answer from ${where} within ${Math.round(timeoutMs / 1000)} s; check the host, the port and any firewall between`);
  }
  if (/terminated unexpectedly|ECONNRESET/i.test(e.message) || e.code === 'ECONNRESET') {
    return line(`${where} closed the connection during the handshake; is it a PostgreSQL server, and does it expect TLS (sslmode=require)?`);
  }
  return line(scrub(e.message, target) || 'unknown error');
}

function asDriverError(err: unknown): DriverError {
  if (err instanceof Error) {
    const withCode = err as Error & { code?: unknown; path?: unknown };
    // Node's AggregateError (one attempt per address of a host name): the first says why.
    const inner = (err as { errors?: unknown[] }).errors?.[0];
    if (withCode.code === undefined && inner instanceof Error) return asDriverError(inner);
    return {
      message: err.message.split('\n')[0] ?? '',
      ...(typeof withCode.code === 'string' ? { code: withCode.code } : {}),
      ...(typeof withCode.path === 'string' ? { path: withCode.path } : {}),
    };
  }
  return { message: String(err) };
}

function scrub(text: string, target: PostgresTarget): string {
  return scrubSecrets(text, target).trim();
}
