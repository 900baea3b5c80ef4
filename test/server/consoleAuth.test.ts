// The console's sessions on a real SQLite store: a one-time login token works once; an API token
// opens a session that ends when the token is revoked; a session lapses at its expiry; the cookie
// is HTTP-only and SameSite=Strict; a POST from another origin is told apart.

import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToken, openRunStore, revokeToken, type RunStore } from '../../api/index.js';
import { ConsoleAuth, sameOrigin, sessionCookie, SESSION_COOKIE } from '../../server/consoleAuth.js';
import { tempDir } from '../support/cli.js';

const stores: RunStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

async function store(): Promise<RunStore> {
  const s = await openRunStore(join(tempDir('squadron-console-auth-'), 'squadron.db'));
  stores.push(s);
  return s;
}

const request = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;
const withCookie = (value: string): IncomingMessage => request({ cookie: `other=1; ${SESSION_COOKIE}=${value}` });

describe('console sessions', () => {
  it('a one-time token opens one session and is spent; a made-up token opens none', async () => {
    const auth = new ConsoleAuth(await store());
    const token = auth.issueOneTimeToken();
    const session = await auth.login(token);
    expect(session).toMatch(/^[\w-]{40,}$/);
    expect(await auth.sessionOf(withCookie(session!))).toMatchObject({ name: 'console' });
    expect(await auth.login(token)).toBeUndefined();
    expect(await auth.login('sqdui_made-up')).toBeUndefined();
    expect(await auth.sessionOf(withCookie('not-a-session'))).toBeUndefined();
    expect(await auth.sessionOf(request({}))).toBeUndefined();
  });

  it('an API token opens a session that ends when the token is revoked', async () => {
    const s = await store();
    const auth = new ConsoleAuth(s);
    const { token } = await createToken(s, 'alice');
    const session = (await auth.login(token))!;
    expect(await auth.sessionOf(withCookie(session))).toMatchObject({ name: 'alice' });
    // Another login with the same API token is fine (it is not one-time).
    expect(await auth.login(token)).toBeDefined();
    expect(await revokeToken(s, 'alice')).toBe(true);
    expect(await auth.sessionOf(withCookie(session))).toBeUndefined();
    expect(await auth.login(token)).toBeUndefined();
  });

  it('a session lapses after twelve hours, and logout ends it at once', async () => {
    let now = Date.parse('2026-12-05T10:00:00Z');
    const auth = new ConsoleAuth(await store(), () => now);
    const a = (await auth.login(auth.issueOneTimeToken()))!;
    const b = (await auth.login(auth.issueOneTimeToken()))!;
    now += 12 * 60 * 60 * 1000 - 1;
    expect(await auth.sessionOf(withCookie(a))).toBeDefined();
    auth.logout(withCookie(b));
    expect(await auth.sessionOf(withCookie(b))).toBeUndefined();
    now += 1;
    expect(await auth.sessionOf(withCookie(a))).toBeUndefined();
  });

  it('the cookie is HTTP-only and SameSite=Strict; only the console origin passes the origin check', () => {
    expect(sessionCookie('abc')).toBe(`${SESSION_COOKIE}=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`);
    expect(sessionCookie(undefined)).toContain('Max-Age=0');
    expect(sameOrigin(request({ host: '127.0.0.1:7071', origin: 'http://127.0.0.1:7071' }))).toBe(true);
    expect(sameOrigin(request({ host: '127.0.0.1:7071', origin: 'http://evil.example' }))).toBe(false);
    expect(sameOrigin(request({ host: '127.0.0.1:7071', origin: 'null' }))).toBe(false);
    expect(sameOrigin(request({ host: '127.0.0.1:7071' }))).toBe(true);
  });
});
