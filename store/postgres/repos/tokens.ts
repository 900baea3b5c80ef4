// API tokens on PostgreSQL (see repos/tokens.ts): hashes only.

import { toTokenRow, type TokensRepo } from '../../repos/tokens.js';
import type { PgRepoContext } from '../context.js';

export function createTokensRepo({ sql, now }: PgRepoContext): TokensRepo {
  return {
    async create(t) {
      const createdAt = now();
      await sql.query('INSERT INTO api_tokens (id, name, token_hash, created_at, missions) VALUES ($1, $2, $3, $4, $5)', [t.id, t.name, t.hash, createdAt, t.missions ? JSON.stringify(t.missions) : null]);
      return { id: t.id, name: t.name, createdAt, ...(t.missions ? { missions: t.missions } : {}) };
    },
    async list() {
      const { rows } = await sql.query('SELECT id, name, created_at, revoked_at, missions FROM api_tokens ORDER BY created_at, id');
      return rows.map(toTokenRow);
    },
    async revoke(idOrName) {
      const { rowCount } = await sql.query('UPDATE api_tokens SET revoked_at = $1 WHERE (id = $2 OR name = $2) AND revoked_at IS NULL', [now(), idOrName]);
      return rowCount > 0;
    },
    async findActive(hash) {
      const { rows } = await sql.query('SELECT id, name, created_at, revoked_at, missions FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL', [hash]);
      return rows[0] ? toTokenRow(rows[0]) : undefined;
    },
  };
}
