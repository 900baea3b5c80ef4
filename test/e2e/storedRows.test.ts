// Reading a run back through the CLI when its messages carry checksums: a run as stored reads back
// whole; a message edited by hand in the database file is caught with the one clear error it got
// before checksums existed, and the file is not changed by reading it.

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { fakeModelBlock } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, turnScript } from '../support/turnScript.js';

let server: FakeModelServer;
let dir = '';
let db = '';
let runId = '';

beforeAll(async () => {
  const script = turnScript({
    'commander of task "note"': [callAgent('worker', 'Say hello'), taskComplete('said hello')],
    'worker agent of task "note"': [{ text: 'hello' }],
  });
  server = await startFakeModelServer({ respond: script.respond });
  dir = tempDir();
  writeFileSync(
    join(dir, 'mission.hcl'),
    `${fakeModelBlock(server)}mission "rows" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "note" {
    objective = "say hello"
    tools     = [builtins.utils.current_time]
  }
}`,
  );
  const result = await runCli(['run', dir, '--json'], { cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  runId = (JSON.parse(result.stdout) as { run_id: string }).run_id;
  db = join(dir, '.squadron', 'squadron.db');
}, 120_000);

afterAll(async () => {
  await server.close();
});

/** A copy of the run's database with `sql` applied, as a person editing the file would. */
function editedCopy(name: string, sql: string): string {
  const source = new Database(db);
  source.pragma('wal_checkpoint(TRUNCATE)');
  source.close();
  const path = join(tempDir(), name);
  copyFileSync(db, path);
  const copy = new Database(path);
  copy.exec(sql);
  copy.close();
  return path;
}

describe('messages read back through the CLI', () => {
  it('stores a checksum with every message and reads the run back whole', async () => {
    const raw = new Database(db, { readonly: true });
    const sums = raw.prepare('SELECT checksum FROM messages').pluck().all();
    raw.close();
    expect(sums.length).toBeGreaterThan(3);
    expect(sums.every((s) => typeof s === 'number')).toBe(true);

    const result = await runCli(['inspect', runId, '--db', db, '--transcript', '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const messages = (JSON.parse(result.stdout) as { tasks: { sessions: { messages: { parts: unknown[] }[] }[] }[] }).tasks[0]!.sessions.flatMap((s) => s.messages);
    expect(messages).toHaveLength(sums.length);
    expect(JSON.stringify(messages)).toContain('said hello');
  }, 120_000);

  it('refuses a message edited by hand with one clear line, as before checksums, and leaves the file as it was', async () => {
    const first = 'SELECT MIN(id) FROM messages';
    const edited = editedCopy('edited.db', `UPDATE messages SET parts_json = '[{"type":"text"}]' WHERE id = (${first})`);
    // The same damage in a row from before checksums (NULL) reads the same.
    const unsummed = editedCopy('unsummed.db', `UPDATE messages SET parts_json = '[{"type":"text"}]', checksum = NULL WHERE id = (${first})`);
    const raw = new Database(edited, { readonly: true });
    const id = raw.prepare(first).pluck().get() as number;
    raw.close();
    const before = readFileSync(edited);

    const expected = `error: messages ${id} parts_json: ✖ Invalid input: expected string, received undefined\n  → at [0].text\n`;
    for (const path of [edited, unsummed]) {
      const result = await runCli(['inspect', runId, '--db', path, '--transcript'], { cwd: dir });
      expect([result.code, result.stderr, result.stdout]).toEqual([1, expected, '']);
    }
    expect(readFileSync(edited).equals(before)).toBe(true);
  }, 120_000);
});
