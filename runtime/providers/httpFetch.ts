// The `fetch` the provider SDKs are given: one model request over node:http/https with a keep-alive
// agent per client, answered as a Response-shaped object whose body is the socket's own stream.
// Node's fetch (undici) costs ~1.8× the CPU per streamed request and ~20 ms more on the first one
// (bench/model-request.mjs); the SDKs only read `status`, `ok`, `headers`, `url`, `body` (async
// iterable) and `text()`/`json()`. Anything this transport does not do the way fetch would — a proxy
// from the environment, a body that is not text or bytes, a redirect — goes to Node's fetch.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** The shape of `fetch` both SDKs accept (their `fetch` client option). */
export type SdkFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Node's fetch fails a request whose server sends nothing for 300 s (headers or body); so does this. */
const IDLE_TIMEOUT_MS = 300_000;

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];

export interface HttpFetchOptions {
  /** Where proxy variables are looked up (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** What takes the requests this transport leaves to fetch (default Node's fetch). */
  fallback?: SdkFetch;
  /** Silence after which a request fails (default 300 s, as Node's fetch). */
  idleTimeoutMs?: number;
}

/** A fetch for one model client; Node's own when the environment names a proxy (fetch's to honour). */
export function createHttpFetch(options: HttpFetchOptions = {}): SdkFetch {
  const env = options.env ?? process.env;
  const fallback = options.fallback ?? ((input, init) => fetch(input, init));
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  if (PROXY_VARIABLES.some((name) => (env[name] ?? '') !== '')) return fallback;
  const httpAgent = new HttpAgent({ keepAlive: true });
  const httpsAgent = new HttpsAgent({ keepAlive: true });
  return (input, init = {}) => {
    // A Request carries its own method, headers and body: fetch's to read (the SDKs pass a URL string).
    if (typeof input !== 'string' && !(input instanceof URL)) return fallback(input, init);
    const url = new URL(input);
    const body = init.body;
    const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (!plainBody || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback(input, init);
    return send(url, init, body as string | Uint8Array | undefined | null, url.protocol === 'https:' ? httpsAgent : httpAgent, idleTimeoutMs).then((answer) =>
      answer === 'redirect' ? fallback(input, init) : answer,
    );
  };
}

function send(url: URL, init: RequestInit, body: string | Uint8Array | undefined | null, agent: HttpAgent, idleTimeoutMs: number): Promise<Response | 'redirect'> {
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    let responseBody: Readable | undefined;
    /** Ends the exchange: before the headers the promise rejects, after them the body fails. */
    const fail = (error: Error): void => {
      responseBody?.destroy(error);
      request.destroy(error);
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: (init.method ?? 'GET').toUpperCase(), headers: headerRecord(init.headers), agent },
      (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (status >= 300 && status < 400 && incoming.headers.location && init.redirect !== 'manual') {
          incoming.resume();
          return resolve('redirect');
        }
        responseBody = decoded(incoming);
        resolve(responseOf(url, incoming, responseBody));
      },
    );
    const onAbort = (): void => fail(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('close', () => signal?.removeEventListener('abort', onAbort));
    request.setTimeout(idleTimeoutMs, () => {
      fail(Object.assign(new Error(`no data from ${url.host} for ${idleTimeoutMs / 1000} s`), { code: 'ETIMEDOUT' }));
    });
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}

/** What the SDKs read of a Response; the body is the (decoded) socket stream, an async iterable. */
function responseOf(url: URL, incoming: IncomingMessage, body: Readable): Response {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  let used = false;
  const text = async (): Promise<string> => {
    if (used) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const status = incoming.statusCode ?? 0;
  const response = {
    url: url.href,
    status,
    statusText: incoming.statusMessage ?? '',
    ok: status >= 200 && status < 300,
    redirected: false,
    headers,
    body,
    get bodyUsed() {
      return used;
    },
    text,
    json: async (): Promise<unknown> => JSON.parse(await text()),
  };
  return response as unknown as Response;
}

/** The body with its content-encoding undone, as fetch does. */
function decoded(incoming: IncomingMessage): Readable {
  const encoding = (incoming.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) return incoming;
  incoming.on('error', (error) => decoder.destroy(error));
  return incoming.pipe(decoder);
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers === undefined) return record;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => (record[name] = value));
  } else if (Array.isArray(headers)) {
    for (const [name, value] of headers) if (name !== undefined && value !== undefined) record[name.toLowerCase()] = value;
  } else {
    for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') record[name.toLowerCase()] = value;
  }
  return record;
}

function abortError(signal: AbortSignal | undefined): Error {
  // As fetch does: the signal's reason when it is an error, else an AbortError.
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}
