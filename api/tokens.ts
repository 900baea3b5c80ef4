// Bearer tokens of the HTTP API (`squadron token create|list|revoke`, checked by `squadron serve`).
// A token is 32 random bytes shown once; the database keeps only its SHA-256, so every server on
// that database accepts it and neither the database nor a log can give it away.

import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/index.js';
import type { TokenRow } from '../store/repos/tokens.js';

export type { TokenRow };

const PREFIX = 'sqd_';

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Makes a token named `name`: its row, and the token itself (to show once; it is not stored). With
 * `missions`, the MCP server and A2A show the token only those missions and their runs.
 */
export async function createToken(store: Store, name: string, opts: { missions?: readonly string[] } = {}): Promise<{ token: string; row: TokenRow }> {
  const token = PREFIX + randomBytes(32).toString('base64url');
  const row = await store.tokens.create({ id: `tok_${randomBytes(8).toString('hex')}`, name, hash: tokenHash(token), ...(opts.missions && opts.missions.length > 0 ? { missions: opts.missions } : {}) });
  return { token, row };
}

export function listTokens(store: Store): Promise<TokenRow[]> {
  return store.tokens.list();
}

/** false when no active token has this id or name. */
export function revokeToken(store: Store, idOrName: string): Promise<boolean> {
  return store.tokens.revoke(idOrName);
}

/** The active token a request's bearer value is, or undefined. Hash lookup: no timing on the token's bytes. */
export async function verifyToken(store: Store, token: string): Promise<TokenRow | undefined> {
  if (!token.startsWith(PREFIX) || token.length > 200) return undefined;
  return store.tokens.findActive(tokenHash(token));
}
