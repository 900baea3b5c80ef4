// The few HTTP pieces every route shares: JSON answers (the CLI's error shape: `error` and
// `error_code`), a bounded body read, and the status for each error code.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDatabaseBusy, SquadronError } from '../api/index.js';

/** What a route throws to answer with a status: its message and code go to the client. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Largest request body accepted (413 above). */
export const MAX_BODY_BYTES = 1024 * 1024;

const STATUS: Record<string, number> = { not_found: 404, usage: 400, refused: 409, run_busy: 409, run_refused: 409, invalid_config: 422 };

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

/** Answers `error` as JSON with its status; anything unexpected is a 500 whose details stay in the log. */
export function sendError(res: ServerResponse, error: unknown): number {
  if (error instanceof HttpError) {
    sendJson(res, error.status, { error: error.message, error_code: error.code });
    return error.status;
  }
  if (error instanceof SquadronError) {
    const status = STATUS[error.code] ?? 400;
    sendJson(res, status, { error: error.message, error_code: error.code });
    return status;
  }
  if (isDatabaseBusy(error)) {
    // Another process holds the database past its busy timeout: nothing was stored; the client may try again.
    res.setHeader('retry-after', '5');
    sendJson(res, 503, { error: 'the database is busy (held by another process); try again', error_code: 'busy' });
    return 503;
  }
  sendJson(res, 500, { error: 'internal error (see the server log)', error_code: 'internal' });
  return 500;
}

/** The raw body, refused with 413 past `limit` bytes (announced or read). */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const announced = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(announced) && announced > limit) throw new HttpError(413, 'too_large', `the body is over ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, 'too_large', `the body is over ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A path segment, percent-decoded; a malformed escape (`%E0`) is the client's error (400), not the server's. */
export function decodePathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, 'usage', 'the path is not valid percent-encoding');
  }
}

/** The body as JSON (an empty body is `{}`); 400 when it is not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'usage', 'the body is not valid JSON');
  }
}
