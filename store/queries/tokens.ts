// API tokens of `squadron serve` (see repos/tokens.ts): hashes only.

import { toTokenRow, type TokensRepo } from '../repos/tokens.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

const INSERT = sql<[id: string, name: string, hash: string, at: string, missions: string | null]>('INSERT INTO api_tokens (id, name, token_hash, created_at, missions) VALUES ($1, $2, $3, $4, $5)');
const LIST = sql<[]>('SELECT id, name, created_at, revoked_at, missions FROM api_tokens ORDER BY created_at, id');
const REVOKE = sql<[at: string, idOrName: string]>('UPDATE api_tokens SET revoked_at = $1 WHERE (id = $2 OR name = $2) AND revoked_at IS NULL');
const FIND = sql<[hash: string]>('SELECT id, name, created_at, revoked_at, missions FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL');

export function createTokensRepo({ db, now }: QueryContext): TokensRepo {
  db.prepare(INSERT, LIST, REVOKE, FIND);
  return {
    async create(t) {
      const createdAt = now();
      await db.run(INSERT, [t.id, t.name, t.hash, createdAt, t.missions ? JSON.stringify(t.missions) : null]);
      return { id: t.id, name: t.name, createdAt, ...(t.missions ? { missions: t.missions } : {}) };
    },
    async list() {
      return (await db.all(LIST, [])).map(toTokenRow);
    },
    async revoke(idOrName) {
      return (await db.run(REVOKE, [now(), idOrName])) > 0;
    },
    async findActive(hash) {
      const row = await db.get(FIND, [hash]);
      return row ? toTokenRow(row) : undefined;
    },
  };
}
