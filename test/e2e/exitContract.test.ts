// End-to-end: the exit-code contract of `squadron docs cli` where a run cannot start for the state of
// its files. A database of a newer schema, and one held locked by another process, exit 2 with one
// clear line (not 1 as an internal error); a missing or corrupt --replay cassette is refused before
// anything is stored (no failed run left behind); a streamed event that is not JSON is retried like
// a dropped stream, with nothing from the SDK on stderr; a repeated -i or --var is a usage error.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 120_000 });

let server: FakeModelServer;
let dir: string;
const turns = turnScript({
  'commander of task "t"': [callAgent('worker', 'Say hi.'), taskComplete('Said hi.')],
  // The first answer's stream is garbled after two events: the retry gets the whole answer.
  'worker agent of task "t"': [{ text: 'hi' }],
});
let garbled = 0;

beforeAll(async () => {
  server = await startFakeModelServer({
    respond: (request) => {
      const reply = turns.respond(request);
      if (request.canonical.system.includes('worker agent of task "t"') && garbled === 0) {
        garbled++;
        return { ...reply, garbleAfterEvents: 2 };
      }
      return reply;
    },
  });
  dir = writeProject({
    'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  input "n" {
    type    = "number"
    default = 0
  }
  task "t" {
    objective = "Say hi."
    tools     = [builtins.utils.current_time]
  }
}
`,
  });
});

afterAll(async () => {
  await server?.close();
  removeProjects();
});

const dbOf = (name: string) => join(dir, `${name}.db`);

function runCount(db: string): number {
  if (!existsSync(db)) return 0;
  const handle = new Database(db, { readonly: true });
  try {
    return handle.prepare('SELECT COUNT(*) FROM runs').pluck().get() as number;
  } finally {
    handle.close();
  }
}

describe('the exit-code contract', () => {
  it('retries a streamed event that is not JSON like a dropped stream, and the SDK prints nothing', async () => {
    const run = await runCli(['run', dir, '--db', dbOf('main')], { cwd: dir });
    expect(turns.problems).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(garbled).toBe(1);
    expect(run.stderr).toContain('model call retry 1');
    expect(run.stderr).toContain('the response stream sent an event that is not JSON');
    expect(run.stderr).not.toMatch(/Could not parse|From chunk|SyntaxError/);
  });

  it('refuses a database of a newer schema with exit 2', async () => {
    const db = dbOf('newer');
    expect((await runCli(['run', dir, '--db', db], { cwd: dir })).code).toBe(0);
    const handle = new Database(db);
    const columns = (handle.prepare("SELECT name FROM pragma_table_info('schema_migrations')").all() as { name: string }[]).map((c) => c.name);
    const row = handle.prepare('SELECT * FROM schema_migrations ORDER BY version DESC LIMIT 1').get() as Record<string, unknown>;
    handle.prepare(`INSERT INTO schema_migrations (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => (c === 'version' ? 9999 : c === 'name' ? '9999_from_the_future' : row[c])));
    handle.close();
    for (const args of [['run', dir, '--db', db], ['runs', '--db', db, '--json']]) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code, `${args[0]}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/^error: .*9999/m);
      expect(result.stderr).not.toContain('--debug');
      if (args.includes('--json')) expect(JSON.parse(result.stdout)).toMatchObject({ error_code: 'database_unusable' });
    }
  });

  it('refuses a database held locked by another process with exit 2, saying so', async () => {
    const db = dbOf('locked');
    expect((await runCli(['run', dir, '--db', db], { cwd: dir })).code).toBe(0);
    const holder = new Database(db);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const result = await runCli(['run', dir, '--db', db, '--json'], { cwd: dir });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^error: the database .*locked\.db is held by another process: /m);
      expect(JSON.parse(result.stdout)).toMatchObject({ error_code: 'database_unusable' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(runCount(db)).toBe(1);
  });

  it('refuses a missing or corrupt --replay cassette before anything is stored', async () => {
    const db = dbOf('replay');
    const corrupt = join(dir, 'corrupt.jsonl');
    writeFileSync(corrupt, '{"this is": "not a cassette entry"\n');
    for (const cassette of [join(dir, 'missing.jsonl'), corrupt]) {
      const result = await runCli(['run', dir, '--db', db, '--replay', cassette, '--json'], { cwd: dir });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^error: --replay: .*cassette/m);
      expect(JSON.parse(result.stdout)).toMatchObject({ error_code: 'run_refused' });
      expect(runCount(db)).toBe(0);
    }
  });

  it('refuses a repeated -i or --var as a usage error', async () => {
    for (const args of [['-i', 'n=1', '-i', 'n=2'], ['--var', 'v=1', '--var', 'v=2']]) {
      const result = await runCli(['run', dir, '--db', dbOf('usage'), ...args], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: (--input n|--var v)=… is given twice; give each name once$/m);
    }
    expect(runCount(dbOf('usage'))).toBe(0);
  });
});
