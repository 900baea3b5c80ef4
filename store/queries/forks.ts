// Forks: the copy statements of forkSql.ts, run atomically (in the caller's transaction when there
// is one). Their texts are fixed (only their values vary), so each is made a statement once.

import { forkStatements, numbered } from '../forkSql.js';
import type { ForksRepo } from '../repos/forks.js';
import type { QueryContext } from '../sql/driver.js';
import { sql, type Statement } from '../sql/statement.js';

const statements = new Map<string, Statement>();
const statementOf = (text: string): Statement => {
  let s = statements.get(text);
  if (s === undefined) statements.set(text, (s = sql(numbered(text))));
  return s;
};

export function createForksRepo({ db, codec }: QueryContext): ForksRepo {
  return {
    async copy(plan) {
      const copies = forkStatements(plan, codec.json(plan.fork));
      await db.atomic(async (tx) => {
        for (const s of copies) await tx.run(statementOf(s.sql), s.values);
      });
    },
  };
}
