// The host policy (`allowed_hosts`, core/hostPolicy.ts) for remote MCP servers: every request the
// HTTP transport makes (the MCP session, its OAuth requests) goes through this fetch, which refuses
// a host whose name is not allowed and whose addresses (as DNS answers them) are special-purpose:
// loopback, private, link-local (the cloud metadata service), …

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { bareHost, hostAllowance, nameAllowed, refusedAddress } from '../../../core/hostPolicy.js';

export type GuardedFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** fetch, refusing hosts the project's allowed_hosts does not let MCP servers reach. */
export function hostGuardedFetch(allowedHosts: readonly string[]): GuardedFetch {
  const allow = hostAllowance(allowedHosts);
  return async (url, init) => {
    const target = new URL(url.toString());
    if (!nameAllowed(allow, target.hostname)) {
      const host = bareHost(target.hostname);
      const addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
      for (const address of addresses) {
        const why = refusedAddress(allow, address);
        if (why !== undefined) throw new Error(`${target.origin} refused: ${why}`);
      }
    }
    return fetch(url, init);
  };
}
