// The HTTP tools' transport: one request over node:http(s), its redirects followed here (not by a
// library) so each hop is checked. Every connection goes through a DNS lookup that refuses the
// addresses the host policy denies (core/hostPolicy.ts), so a redirect or a name that resolves to
// 127.0.0.1 or 169.254.169.254 is refused as the first request would be. A redirect to another
// origin carries none of the call's headers (they came from the model or the config: tokens), and
// one that would have to send the body again (307, 308) is not followed: its answer is the result.

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, nameAllowed, refusedAddress, type HostAllowance } from '../../../core/hostPolicy.js';

/** A host the policy refuses: the message says which address and why. */
export class HostRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostRefusedError';
  }
}

export interface Outgoing {
  method: string;
  url: URL;
  /** The call's own headers (from the model or the custom tool's config). */
  headers: Record<string, string>;
  /** Squadron's headers (user-agent, content-type of the body): kept across origins. */
  baseHeaders: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  allow: HostAllowance;
}

export interface Answer {
  response: IncomingMessage;
  /** The URL that answered (after redirects). */
  url: URL;
  /** Set when a redirect was not followed, saying why. */
  note?: string;
}

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function sendFollowingRedirects(out: Outgoing): Promise<Answer> {
  let url = out.url;
  let method = out.method;
  let body = out.body;
  let headers = { ...out.baseHeaders, ...out.headers };
  let baseHeaders = { ...out.baseHeaders };
  const origin = out.url.origin;
  for (let hop = 0; ; hop++) {
    const response = await sendOnce(method, url, headers, body, out.signal, out.allow);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECTS.has(status) || location === undefined) return { response, url };
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { response, url, note: `the redirect to ${JSON.stringify(location)} was not followed: not a URL` };
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return { response, url, note: `the redirect to a ${next.protocol} URL was not followed` };
    if (hop >= MAX_REDIRECTS) return { response, url, note: `not followed: more than ${MAX_REDIRECTS} redirects` };
    const crossOrigin = next.origin !== origin;
    if ((status === 307 || status === 308) && body !== undefined && crossOrigin) {
      return { response, url, note: `the redirect to another origin (${next.origin}) was not followed: a ${status} would send the request body there` };
    }
    // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
    if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      baseHeaders = withoutContentType(baseHeaders);
      headers = withoutContentType(headers);
    }
    // Across origins, only Squadron's own headers go on: the call's could hold a secret.
    if (crossOrigin) headers = { ...baseHeaders };
    response.resume();
    url = next;
  }
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type' && k.toLowerCase() !== 'content-length'));
}

function sendOnce(method: string, url: URL, headers: Record<string, string>, body: string | undefined, signal: AbortSignal, allow: HostAllowance): Promise<IncomingMessage> {
  const host = bareHost(url.hostname);
  const named = nameAllowed(allow, url.hostname);
  // An address written in the URL is connected to without a lookup: check it here.
  if (!named && isIP(host) !== 0) {
    const refused = refusedAddress(allow, host);
    if (refused !== undefined) return Promise.reject(new HostRefusedError(refused));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const all: Record<string, string> = { ...headers };
  if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers: all, signal, ...(named ? {} : { lookup: guardedLookup(allow) }) }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

/** dns.lookup that answers only the addresses the policy allows, and fails when none is left. */
function guardedLookup(allow: HostAllowance): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number | "IPv4" | "IPv6" }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      const allowed = addresses.filter((a) => refusedAddress(allow, a.address) === undefined);
      if (allowed.length === 0) {
        const first = addresses[0];
        return callback(new HostRefusedError(first === undefined ? `${hostname} has no address` : `${hostname} resolves to ${refusedAddress(allow, first.address)}`));
      }
      if (options.all === true) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  }) as unknown as LookupFunction;
}
