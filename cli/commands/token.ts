// `squadron token create|list|revoke`: the bearer tokens `squadron serve` accepts, kept hashed in the
// database (every server on it accepts them). A new token is printed once and never again.

import type { Command } from 'commander';
import { CliError, collect, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { DB_OPTION_HELP, runDbPath } from '../databaseAccess.js';
import { table } from '../table.js';

export function register(program: Command, io: CliIo): void {
  const token = program.command('token').description('Manage the bearer tokens of `squadron serve` (see `squadron docs token`)');
  token
    .command('create')
    .description('Make a token and print it once')
    .argument('<name>', 'who or what uses it (shown by list, recorded with decisions)')
    .option('--mission <name>', 'limit the token to this mission over MCP and A2A (repeatable; default: every exposed mission)', collect, [])
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .action(async (name: string, flags: { db?: string; json?: boolean; mission: string[] }) => {
      const { createToken } = await import('../../api/index.js');
      await withStore(io, flags.db, async (store) => {
        const { token: value, row } = await createToken(store, name, { missions: flags.mission });
        if (flags.json) writeJson(io, { id: row.id, name: row.name, token: value, created_at: row.createdAt, missions: row.missions ?? null });
        else io.stdout.write(`${value}\n`);
        if (!flags.json) io.stderr.write(`token ${row.id} (${row.name}) made; it is shown only now: keep it somewhere safe\n`);
      });
    });
  token
    .command('list')
    .description('List tokens (never their values)')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .action(async (flags: { db?: string; json?: boolean }) => {
      const { listTokens } = await import('../../api/index.js');
      await withStore(io, flags.db, async (store) => {
        const rows = await listTokens(store);
        if (flags.json) return writeJson(io, { tokens: rows.map((r) => ({ id: r.id, name: r.name, created_at: r.createdAt, revoked_at: r.revokedAt ?? null, missions: r.missions ?? null })) });
        if (rows.length === 0) return void io.stdout.write('no tokens (make one with: squadron token create <name>)\n');
        io.stdout.write(table(['ID', 'NAME', 'CREATED', 'REVOKED'], rows.map((r) => [r.id, r.name, r.createdAt.replace('T', ' ').slice(0, 19), r.revokedAt ? r.revokedAt.replace('T', ' ').slice(0, 19) : '-'])));
      });
    });
  token
    .command('revoke')
    .description('Revoke a token at once (by id or name)')
    .argument('<id-or-name>')
    .option('--db <path>', DB_OPTION_HELP)
    .action(async (which: string, flags: { db?: string }) => {
      const { revokeToken } = await import('../../api/index.js');
      await withStore(io, flags.db, async (store) => {
        if (!(await revokeToken(store, which))) throw new CliError(`no active token ${which} (see squadron token list)`, 'not_found');
        io.stdout.write(`revoked ${which}\n`);
      });
    });
}

async function withStore(io: CliIo, flag: string | undefined, fn: (store: import('../../api/index.js').RunStore) => Promise<void>): Promise<void> {
  const { openRunStore } = await import('../../api/index.js');
  const store = await openRunStore(runDbPath(io, io.cwd, flag));
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}
