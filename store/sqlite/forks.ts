// Forks on SQLite: the shared copy statements, run in the caller's transaction.

import { forkStatements } from '../forkSql.js';
import type { ForksRepo } from '../repos/forks.js';
import type { RepoContext } from './context.js';

export function createForksRepo({ db, codec }: RepoContext): ForksRepo {
  return {
    async copy(plan) {
      const statements = forkStatements(plan, codec.json(plan.fork));
      db.transaction(() => {
        for (const s of statements) db.prepare(s.sql).run(...s.values);
      })();
    },
  };
}
