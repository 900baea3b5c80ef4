// `builtins.http.*`: HTTP requests (transport, redirects and host policy in httpSend.ts). A 4xx/5xx
// answer is a normal result the model reads (status first); only network failures, refused hosts,
// timeouts and cancellations are error results. Bodies are capped so one large page cannot flood the
// model's context. URLs in error messages are shown without their query and user info (secrets).

import type { IncomingMessage } from 'node:http';
import { hostAllowance } from '../../../core/hostPolicy.js';
import { shownUrl, shownUrlText, type TextMask } from '../../../core/shownUrl.js';
import type { ToolContext, ToolResult } from '../types.js';
import { textResult } from '../types.js';
import { HostRefusedError, sendFollowingRedirects } from './httpSend.js';

export interface HttpOptions {
  /** Per-call timeout (default 30 s). */
  timeoutMs?: number;
  /** Response bodies beyond this are truncated (default 1 MiB). */
  maxResponseBytes?: number;
  /** The project's `allowed_hosts`: special addresses (loopback, private, link-local) these name may be reached. */
  allowedHosts?: readonly string[];
  /**
   * One-way mask of the run's secrets (values computed from them included): applied to the URL an
   * error message names (host and path; the query and user info are never shown) and to the message.
   */
  mask?: TextMask;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The input after schema validation (see config/builtinTools.ts). */
export interface HttpInput {
  url: string;
  headers?: Record<string, string>;
  body?: Record<string, unknown> | string;
  content_type?: 'json' | 'form' | 'text';
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
const SHOWN_HEADERS = ['content-type', 'content-length', 'location'];

export async function httpRequest(method: HttpMethod, input: HttpInput, ctx: ToolContext, options: HttpOptions = {}): Promise<ToolResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_BYTES;
  const verb = method.toUpperCase();

  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return textResult(`input.url: not an absolute URL: ${shownUrlText(input.url, options.mask)}`, true);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return textResult(`input.url: only http:// and https:// URLs are allowed, got ${url.protocol}`, true);
  }

  const baseHeaders: Record<string, string> = { 'user-agent': 'squadron' };
  const encoded = encodeBody(input);
  if (typeof encoded === 'string') return textResult(encoded, true);
  if (encoded) baseHeaders['content-type'] = encoded.contentType;
  // Caller headers win over the defaults above (e.g. a vendor JSON content type).
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    try {
      new Headers().set(name, value);
    } catch {
      return textResult(`input.headers: invalid header ${JSON.stringify(name)}`, true);
    }
    headers[name.toLowerCase()] = value;
  }

  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const allow = hostAllowance(options.allowedHosts ?? []);
  try {
    const answer = await sendFollowingRedirects({ method: verb, url, headers, baseHeaders, ...(encoded ? { body: encoded.body } : {}), signal, allow });
    const body = await readCapped(answer.response, maxBytes);
    return textResult(formatResponse(answer.response, body, maxBytes, answer.note));
  } catch (err) {
    const mask = options.mask ?? ((text: string) => text);
    const shown = `HTTP ${verb} ${shownUrl(url, options.mask)}`;
    if (err instanceof HostRefusedError) return textResult(`${shown} refused: ${mask(err.message)}`, true);
    if (timeout.aborted) return textResult(`${shown} timed out after ${timeoutMs / 1000} s`, true);
    if (ctx.signal.aborted) return textResult(`${shown} was cancelled`, true);
    return textResult(`${shown} failed: ${mask(networkErrorMessage(err))}`, true);
  }
}

/** Returns the encoded body, undefined for none, or an error message the model can act on. */
function encodeBody(input: HttpInput): { body: string; contentType: string } | undefined | string {
  const { body } = input;
  if (body === undefined) return undefined;
  const kind = input.content_type ?? 'json';
  switch (kind) {
    case 'json':
      return { body: typeof body === 'string' ? body : JSON.stringify(body), contentType: 'application/json' };
    case 'form': {
      if (typeof body === 'string') return 'input.body: content_type "form" needs an object body (field names to values)';
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(body)) {
        if (v === undefined || v === null) continue;
        form.append(k, typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));
      }
      return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
    }
    case 'text':
      if (typeof body !== 'string') return 'input.body: content_type "text" needs a string body';
      return { body, contentType: 'text/plain; charset=utf-8' };
  }
}

interface CappedBody {
  bytes: Uint8Array;
  truncated: boolean;
}

/** Reads at most `maxBytes` and drops the rest of the stream, so a huge body costs nothing more. */
async function readCapped(response: IncomingMessage, maxBytes: number): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    if (size + chunk.byteLength > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      response.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return { bytes: new Uint8Array(Buffer.concat(chunks, size)), truncated };
}

function formatResponse(response: IncomingMessage, body: CappedBody, maxBytes: number, note: string | undefined): string {
  const lines = [`HTTP ${response.statusCode ?? 0} ${response.statusMessage ?? ''}`.trimEnd()];
  for (const name of SHOWN_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) lines.push(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
  }
  if (note !== undefined) lines.push(`(${note})`);
  const contentType = header(response, 'content-type') ?? '';
  if (body.truncated) lines.push(`(body truncated: showing the first ${maxBytes} bytes)`);
  let text: string;
  if (isTextual(contentType)) {
    // A cut can fall inside a multi-byte character; the decoder replaces it rather than failing.
    text = new TextDecoder('utf-8', { fatal: false }).decode(body.bytes);
  } else {
    text = `[binary body: ${body.bytes.byteLength}${body.truncated ? '+' : ''} bytes of ${contentType}, not shown]`;
  }
  return `${lines.join('\n')}\n\n${text}`;
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function isTextual(contentType: string): boolean {
  const ct = contentType.toLowerCase();
  if (ct === '') return true;
  return (
    ct.startsWith('text/') ||
    /[/+](json|xml|javascript|ecmascript|yaml|x-yaml|csv|html|x-www-form-urlencoded|graphql)\b/.test(ct) ||
    ct.includes('charset=')
  );
}

function networkErrorMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici reports "fetch failed" with the useful part (ECONNREFUSED, ENOTFOUND…) in `cause`.
  const cause = (err as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return `${cause.message}${typeof code === 'string' && !cause.message.includes(code) ? ` (${code})` : ''}`;
  }
  return err.message;
}
