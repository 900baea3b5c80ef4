// Forks on PostgreSQL: the shared copy statements, numbered, run atomically (in the caller's
// transaction when there is one).

import { forkStatements, numbered } from '../../forkSql.js';
import type { ForksRepo } from '../../repos/forks.js';
import type { PgRepoContext } from '../context.js';

export function createForksRepo({ atomic, codec }: PgRepoContext): ForksRepo {
  return {
    async copy(plan) {
      const statements = forkStatements(plan, codec.json(plan.fork));
      await atomic(async (sql) => {
        for (const s of statements) await sql.query(numbered(s.sql), s.values);
      });
    },
  };
}
