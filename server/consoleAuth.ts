// The console's sessions: a login (the one-time token `squadron ui` prints, or an API token under
// `serve`) becomes an HTTP-only, SameSite=Strict cookie. Only SHA-256 hashes are kept, in this
// process's memory: a session ends with the process, and neither a log nor the database holds one.

import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { verifyToken, type RunStore, type TokenRow } from '../api/index.js';

export const SESSION_COOKIE = 'squadron_session';
const SESSION_MS = 12 * 60 * 60 * 1000;
const ONE_TIME_PREFIX = 'sqdui_';

function hash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

interface Session {
  who: TokenRow;
  expiresAt: number;
}

export class ConsoleAuth {
  private readonly sessions = new Map<string, Session>();
  private readonly oneTime = new Set<string>();

  constructor(
    private readonly store: RunStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** A login token that works once (printed by `squadron ui` in its login URL). */
  issueOneTimeToken(): string {
    const token = ONE_TIME_PREFIX + randomBytes(24).toString('base64url');
    this.oneTime.add(hash(token));
    return token;
  }

  /** The cookie value of a new session when `token` is a one-time token not used yet, or an active API token. */
  async login(token: string): Promise<string | undefined> {
    let who: TokenRow | undefined;
    const h = hash(token);
    if (token.startsWith(ONE_TIME_PREFIX) && this.oneTime.delete(h)) who = { id: 'console', name: 'console', createdAt: new Date(this.now()).toISOString() };
    else who = await verifyToken(this.store, token);
    if (!who) return undefined;
    const session = randomBytes(32).toString('base64url');
    this.sessions.set(hash(session), { who, expiresAt: this.now() + SESSION_MS });
    return session;
  }

  /** Who the request's session cookie belongs to; undefined without a live session (or when its API token was revoked). */
  async sessionOf(req: IncomingMessage): Promise<TokenRow | undefined> {
    const value = cookie(req, SESSION_COOKIE);
    if (!value) return undefined;
    const key = hash(value);
    const s = this.sessions.get(key);
    if (!s) return undefined;
    if (s.expiresAt <= this.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    // A session made from an API token lasts only as long as the token.
    if (s.who.id !== 'console' && !(await this.store.tokens.list()).some((t) => t.id === s.who.id && t.revokedAt === undefined)) {
      this.sessions.delete(key);
      return undefined;
    }
    return s.who;
  }

  logout(req: IncomingMessage): void {
    const value = cookie(req, SESSION_COOKIE);
    if (value) this.sessions.delete(hash(value));
  }
}

/** The Set-Cookie value of a session (HttpOnly, SameSite=Strict, whole site), or of its removal. */
export function sessionCookie(value: string | undefined): string {
  return value === undefined
    ? `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`
    : `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_MS / 1000}`;
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A cookie-authenticated POST must come from the console's own pages (SameSite=Strict, and the Origin checked too). */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
