// Wording and small mechanics of MCP connection failures: the bounded tail of a server's stderr,
// one line for an error from the SDK, node or fetch, and durations as people read them.

import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { NeedsLoginError, NoOAuthError } from './oauthProvider.js';

/** Characters of a server's stderr kept to explain a failure. */
export const STDERR_TAIL_CHARS = 2000;

export function appendTail(tail: string[], chunk: string): void {
  tail.push(chunk);
  let size = tail.reduce((n, s) => n + s.length, 0);
  while (size > STDERR_TAIL_CHARS && tail.length > 1) size -= tail.shift()!.length;
}

/** Longest part of an HTTP error body shown: a server's whole HTML error page is not a message. */
const HTTP_BODY_CHARS = 160;

export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err instanceof NeedsLoginError || err instanceof NoOAuthError) return err.message;
  if (err instanceof StreamableHTTPError && err.code !== undefined) return httpErrorLine(err.code, err.message);
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' && 'path' in err) return `command not found: ${String((err as NodeJS.ErrnoException).path)}`;
  // fetch reports "fetch failed" with the useful part (ECONNREFUSED, ENOTFOUND…) in `cause`.
  const cause = (err as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) return `${err.message}: ${cause.message}`;
  return err.message;
}

/** `HTTP 404: not found (is the url right?)`: the status, and the body's text in one short line. */
function httpErrorLine(status: number, message: string): string {
  const body = message
    .replace(/^(?:Streamable HTTP error: )?Error (?:POSTing to|GETting from|DELETEing) endpoint(?: \(HTTP \d+\))?:\s*/, '')
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const shown = body.length > HTTP_BODY_CHARS ? `${body.slice(0, HTTP_BODY_CHARS)}…` : body;
  const hint = status === 404 ? ' (is the url right?)' : status === 401 || status === 403 ? ' (check the credentials)' : '';
  return `HTTP ${status}${shown ? `: ${shown}` : ''}${hint}`;
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
