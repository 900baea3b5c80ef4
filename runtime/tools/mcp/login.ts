// `squadron mcp login <server>`: the one step of OAuth that needs a person. A loopback HTTP server on
// 127.0.0.1 receives the browser's redirect; the SDK does discovery, dynamic client registration,
// PKCE and the code exchange; the tokens go to the encrypted credential store, from which runs read
// and refresh them without asking again.

import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { createServer, type Server } from 'node:http';
import type { CredentialStore } from './credentialStore.js';
import { StoredOAuthProvider } from './oauthProvider.js';

export interface McpLoginOptions {
  server: { name: string; url: string };
  store: CredentialStore;
  /** Shows the person where to log in (printed by the CLI). */
  onAuthorizationUrl(url: URL): void;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
}

export type McpLoginResult = { ok: true } | { ok: false; reason: string };

const CALLBACK_PATH = '/callback';

export async function loginToMcpServer(opts: McpLoginOptions): Promise<McpLoginResult> {
  const callback = await listenForCallback(opts.timeoutMs ?? 5 * 60_000);
  try {
    const provider = new StoredOAuthProvider(opts.server, opts.store, {
      redirectUrl: callback.url,
      onAuthorizationUrl: (url) => opts.onAuthorizationUrl(url),
    });
    // A login starts over: the old tokens (possibly for another account) are dropped first.
    if (opts.store.read(opts.server.url) !== undefined) opts.store.update(opts.server.url, { tokens: undefined });
    const started = await auth(provider, { serverUrl: opts.server.url });
    if (started === 'AUTHORIZED') return { ok: true };
    const reply = await callback.result;
    if ('error' in reply) return { ok: false, reason: reply.error };
    if (reply.state !== provider.state()) return { ok: false, reason: 'the authorization server answered with a different state: the login was not the one started here' };
    const finished = await auth(provider, { serverUrl: opts.server.url, authorizationCode: reply.code });
    return finished === 'AUTHORIZED' ? { ok: true } : { ok: false, reason: 'the authorization server did not issue tokens' };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  } finally {
    await callback.close();
  }
}

interface Callback {
  url: string;
  result: Promise<{ code: string; state: string | null } | { error: string }>;
  close(): Promise<void>;
}

async function listenForCallback(timeoutMs: number): Promise<Callback> {
  let settle!: (value: { code: string; state: string | null } | { error: string }) => void;
  const result = new Promise<{ code: string; state: string | null } | { error: string }>((resolve) => (settle = resolve));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    if (code !== null) {
      res.end('Squadron is logged in. You can close this page.\n');
      settle({ code, state: url.searchParams.get('state') });
    } else {
      const description = url.searchParams.get('error_description');
      res.end('The login did not complete; see the terminal.\n');
      settle({ error: `the authorization server refused: ${error ?? 'no code'}${description ? ` (${description})` : ''}` });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const timer = setTimeout(() => settle({ error: `no answer from the browser within ${Math.round(timeoutMs / 1000)} s` }), timeoutMs);
  timer.unref();
  return {
    url: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    result,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
