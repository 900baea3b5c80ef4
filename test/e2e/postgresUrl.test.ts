// A PostgreSQL connection string given to --db or SQUADRON_DB, before the PostgreSQL store exists:
// every command that takes a database refuses it in one line (the password masked) and creates
// nothing, instead of taking `postgres://…` for a relative file path.

import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';

const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function quickstartCopy(): string {
  const dir = tempDir('squadron-pgurl-');
  made.push(dir);
  mkdirSync(join(dir, 'quickstart'));
  for (const f of ['mission.hcl', 'cassette.jsonl']) copyFileSync(join(REPO_ROOT, 'examples', 'quickstart', f), join(dir, 'quickstart', f));
  return dir;
}

const URL_WITH_PASSWORD = 'postgres://ana:s3cret-pass@db.example.com/squadron';
const NOT_YET = ': PostgreSQL databases are not supported yet (see squadron docs scale-out); pass a SQLite database file, or the config whose .squadron/squadron.db to use';

describe('a PostgreSQL URL as the database', () => {
  it.each([
    ['run', ['run', 'quickstart', '--replay', 'quickstart/cassette.jsonl']],
    ['runs', ['runs']],
    ['inspect', ['inspect', 'run_abc']],
    ['resume', ['resume', 'run_abc']],
  ])('is refused by %s with one line, the password masked, nothing created', async (_name, args) => {
    const cwd = quickstartCopy();
    const result = await runCli([...args, '--db', URL_WITH_PASSWORD], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: --db postgres://ana:***@db.example.com:5432/squadron${NOT_YET}\n`);
    expect(result.stderr + result.stdout).not.toContain('s3cret-pass');
    expect(readdirSync(cwd)).toEqual(['quickstart']);
    expect(readdirSync(join(cwd, 'quickstart')).sort()).toEqual(['cassette.jsonl', 'mission.hcl']);
  });

  it('is refused from SQUADRON_DB too, as a JSON error with --json', async () => {
    const cwd = quickstartCopy();
    const result = await runCli(['runs', '--json'], { cwd, env: { SQUADRON_DB: 'postgresql://ana@db.internal:6432/runs?password=s3cret-pass&sslmode=verify-full' } });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: `SQUADRON_DB=postgres://ana@db.internal:6432/runs?password=***&sslmode=verify-full${NOT_YET}`,
      error_code: 'usage',
    });
    expect(result.stderr + result.stdout).not.toContain('s3cret-pass');
    expect(readdirSync(cwd)).toEqual(['quickstart']);
  });
});
