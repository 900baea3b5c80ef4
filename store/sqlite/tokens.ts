// API tokens on SQLite (see repos/tokens.ts): hashes only.

import type { RepoContext } from './context.js';
import { toTokenRow, type TokensRepo } from '../repos/tokens.js';

export function createTokensRepo({ db, now }: RepoContext): TokensRepo {
  const insert = db.prepare('INSERT INTO api_tokens (id, name, token_hash, created_at, missions) VALUES (?, ?, ?, ?, ?)');
  const list = db.prepare('SELECT id, name, created_at, revoked_at, missions FROM api_tokens ORDER BY created_at, id');
  const revoke = db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE (id = ? OR name = ?) AND revoked_at IS NULL');
  const find = db.prepare('SELECT id, name, created_at, revoked_at, missions FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL');
  return {
    async create(t) {
      const createdAt = now();
      insert.run(t.id, t.name, t.hash, createdAt, t.missions ? JSON.stringify(t.missions) : null);
      return { id: t.id, name: t.name, createdAt, ...(t.missions ? { missions: t.missions } : {}) };
    },
    async list() {
      return (list.all() as Record<string, unknown>[]).map(toTokenRow);
    },
    async revoke(idOrName) {
      return revoke.run(now(), idOrName, idOrName).changes > 0;
    },
    async findActive(hash) {
      const row = find.get(hash) as Record<string, unknown> | undefined;
      return row ? toTokenRow(row) : undefined;
    },
  };
}
