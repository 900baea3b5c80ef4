// End-to-end: what `squadron resume` remembers and what it refuses. A run killed with SIGKILL is
// resumed with the run's own variable values, asks again for its secret ones, refuses a changed
// config unless told (and records it); a failed run is refused without --retry-failed and retried
// from fresh sessions with it. Every refusal happens before anything is written.

import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, openRunDb, removeProjects, storedEvents, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeReply, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { firstUserMessage as firstUserText, taskComplete } from '../support/turnScript.js';

afterAll(removeProjects);

const withServer = withFakeModelServer;

/**
 * Two tasks, "one" then "two"; two's objective names the port, so it is rendered only when two
 * starts — after the resume. The model's key is a secret variable; a skill's instructions come from
 * guide.md through load(), so that file is part of the config too.
 */
function twoTaskProject(server: FakeModelServer): string {
  return writeProject({
    'main.hcl': `
variable "port" {
  default = "80"
}
variable "api_key" {
  secret = true
}
variable "second_secret" {
  secret = true
}
model "fake" {
  provider = "anthropic"
  base_url = "${server.anthropicBaseURL}"
  api_key  = vars.api_key
}
skill "guide" {
  description  = "House rules"
  instructions = load("guide.md")
}
`,
    'guide.md': 'Be brief.\n',
    'mission.hcl': missionHcl('Check the service on port ${vars.port}.'),
  });
}

function missionHcl(twoObjective: string): string {
  return `
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "one" {
    objective = "Say one (the second secret is $\{vars.second_secret})."
    tools     = [builtins.utils.current_time]
  }
  task "two" {
    depends_on = [tasks.one]
    objective  = "${twoObjective}"
    tools      = [builtins.utils.current_time]
  }
}
`;
}

/** Completes each task at once, saying what its objective was. */
function completeAtOnce(request: FakeRequest): FakeReply {
  return taskComplete(`done: ${firstUserText(request)}`);
}

/** `squadron run` killed with SIGKILL as soon as its first model request is in flight. */
async function runKilledAtFirstRequest(server: FakeModelServer, dir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  let child: ChildProcess | undefined;
  server.onRequest = (n) => {
    if (n === 1) child?.kill('SIGKILL');
  };
  const killed = await runCli(['run', dir, ...args], { cwd: dir, env, onSpawn: (c) => (child = c) });
  server.onRequest = undefined;
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  const runId = /^run (run_\w+)$/m.exec(killed.stdout)?.[1];
  expect(runId, killed.stdout).toBeDefined();
  return runId!;
}

/** Every row of every table, to show a refused command wrote nothing. */
function dbContents(dir: string): string {
  const db = openRunDb(dir);
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    return JSON.stringify(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all()]));
  } finally {
    db.close();
  }
}

function expectOneClearError(result: CliResult): void {
  expect(result.stderr).not.toMatch(/at .*\.js:\d+/); // never a stack trace
  expect(result.stdout).toBe('');
}

const SECRETS = { SQUADRON_VAR_api_key: 'test-key-123', SQUADRON_VAR_second_secret: 'hush-42' };

describe('squadron resume remembers the run', () => {
  it("reuses the run's --var values, asks again for every secret at once, and stores no secret", async () => {
    await withServer(completeAtOnce, async (server) => {
      const dir = twoTaskProject(server);
      const runId = await runKilledAtFirstRequest(server, dir, ['--var', 'port=38827', '--var', 'second_secret=hush-42'], { SQUADRON_VAR_api_key: 'test-key-123' });
      const before = dbContents(dir);
      const requestsBefore = server.requests.length;

      // Both secrets are missing: named together, one line each, usage error, nothing done.
      const refused = await runCli(['resume', runId], { cwd: dir });
      expect(refused.code).toBe(2);
      expectOneClearError(refused);
      expect(refused.stderr).toContain(`error: run ${runId} needs 2 secret variables again (secret values are never stored with a run):`);
      expect(refused.stderr).toContain('  api_key: pass --var api_key=… or set SQUADRON_VAR_api_key\n');
      expect(refused.stderr).toContain('  second_secret: pass --var second_secret=… or set SQUADRON_VAR_second_secret\n');
      expect(dbContents(dir)).toBe(before);
      expect(server.requests.length).toBe(requestsBefore);

      // One given by the environment, one by --var; the port comes from the run, not the default.
      const resumed = await runCli(['resume', runId, '--var', 'second_secret=hush-42'], { cwd: dir, env: { SQUADRON_VAR_api_key: 'test-key-123' } });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout.split('\n')[0]).toBe(`run ${runId}`);
      expect(resumed.stdout).not.toContain('resume with');
      expect(resumed.stdout).toContain('done: Check the service on port 38827.');
      const two = server.requests.filter((r) => r.canonical.system.includes(commanderOf('two')));
      expect(two.map(firstUserText)).toEqual(['Check the service on port 38827.']);

      const db = openRunDb(dir);
      const run = db.prepare('SELECT variables_json, config_json FROM runs WHERE id = ?').get(runId) as { variables_json: string; config_json: string };
      db.close();
      expect(JSON.parse(run.variables_json)).toEqual({ values: { port: '38827' }, secrets: ['api_key', 'second_secret'] });
      expect(Object.keys(JSON.parse(run.config_json).files)).toEqual(['guide.md', 'main.hcl', 'mission.hcl']);
      expect(dbContents(dir)).not.toContain('hush-42');
      expect(dbContents(dir)).not.toContain('test-key-123');
    });
  });

  it('refuses an edited objective naming the file, and a changed --var naming the variable, until --allow-config-change', async () => {
    await withServer(completeAtOnce, async (server) => {
      const dir = twoTaskProject(server);
      const runId = await runKilledAtFirstRequest(server, dir, ['--var', 'port=38827'], SECRETS);
      writeFileSync(join(dir, 'mission.hcl'), missionHcl('Check the OTHER service on port ${vars.port}.'));
      writeFileSync(join(dir, 'guide.md'), 'Be very brief.\n');
      writeFileSync(join(dir, 'extra.hcl'), '# an added file\n');
      const before = dbContents(dir);
      const requestsBefore = server.requests.length;

      const refused = await runCli(['resume', runId, '--var', 'port=9'], { cwd: dir, env: SECRETS });
      expect(refused.code).toBe(2);
      expectOneClearError(refused);
      expect(refused.stderr).toContain(`error: the config of run ${runId} changed since it last ran:\n`);
      expect(refused.stderr).toContain('  file guide.md modified\n');
      expect(refused.stderr).toContain('  file mission.hcl modified\n');
      expect(refused.stderr).toContain('  file extra.hcl added\n');
      expect(refused.stderr).toContain('  variable port changed from "38827" to "9"\n');
      expect(refused.stderr).toContain('resume anyway with --allow-config-change');
      expect(dbContents(dir)).toBe(before);
      expect(server.requests.length).toBe(requestsBefore);

      const allowed = await runCli(['resume', runId, '--allow-config-change', '--var', 'port=9'], { cwd: dir, env: SECRETS });
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stderr).toContain(`note: resuming run ${runId} with a changed config (recorded on the run): file guide.md modified; file mission.hcl modified; file extra.hcl added; variable port changed from "38827" to "9"`);
      expect(allowed.stdout).toContain('done: Check the OTHER service on port 9.');
      expect(allowed.stdout.split('\n')[0]).toBe(`run ${runId}`);

      const inspect = await runCli(['inspect', runId], { cwd: dir });
      expect(inspect.code, inspect.stderr).toBe(0);
      expect(inspect.stdout).toMatch(/^resumed with a changed config at \S+: file guide\.md modified; file mission\.hcl modified; file extra\.hcl added; variable port changed from "38827" to "9"$/m);
      const db = openRunDb(dir);
      const row = db.prepare('SELECT config_changes_json, variables_json FROM runs WHERE id = ?').get(runId) as { config_changes_json: string; variables_json: string };
      db.close();
      const recorded = JSON.parse(row.config_changes_json) as { at: string; changes: string[] }[];
      expect(recorded.map((r) => r.changes)).toEqual([['file guide.md modified', 'file mission.hcl modified', 'file extra.hcl added', 'variable port changed from "38827" to "9"']]);
      expect(storedEvents(dir, 'run.config_changed').map((e) => e['changes'])).toEqual([recorded[0]!.changes]);
      // What it ran with is now the run's config: a later resume compares with that.
      expect(JSON.parse(row.variables_json).values).toEqual({ port: '9' });
    });
  });

  it('resumes a run stored before configs were recorded, with a note, and records them from then on', async () => {
    await withServer(completeAtOnce, async (server) => {
      const dir = twoTaskProject(server);
      const runId = await runKilledAtFirstRequest(server, dir, [], SECRETS);
      const db = new Database(join(dir, '.squadron', 'squadron.db'));
      db.prepare('UPDATE runs SET config_json = NULL, variables_json = NULL').run(); // what migration 0002 leaves older runs with
      db.close();
      writeFileSync(join(dir, 'mission.hcl'), missionHcl('Edited before the upgrade.'));

      const resumed = await runCli(['resume', runId], { cwd: dir, env: SECRETS });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`note: run ${runId} was stored before runs recorded their config, so its config and variables are not checked`);
      expect(resumed.stdout).toContain('done: Edited before the upgrade.');
      const after = openRunDb(dir);
      const row = after.prepare('SELECT config_json, variables_json FROM runs').get() as { config_json: string | null; variables_json: string | null };
      after.close();
      expect(row.config_json).not.toBeNull();
      expect(JSON.parse(row.variables_json!)).toEqual({ values: { port: '80' }, secrets: ['api_key', 'second_secret'] });
    });
  });
});

describe('squadron resume of a failed run', () => {
  it('refuses without --retry-failed, then retries the failed task from a fresh session and runs its dependent', async () => {
    let commanderWorks = false;
    const respond = (request: FakeRequest): FakeReply => {
      if (request.canonical.system.includes(commanderOf('one')) && !commanderWorks) return { text: 'I would rather chat than call tools.' };
      return completeAtOnce(request);
    };
    await withServer(respond, async (server) => {
      const dir = twoTaskProject(server);
      const failed = await runCli(['run', dir], { cwd: dir, env: SECRETS });
      expect(failed.code).toBe(1);
      const runId = /^run (run_\w+)$/m.exec(failed.stdout)![1]!;
      expect(failed.stdout).toContain('the commander replied without a tool call');
      expect(failed.stdout).not.toContain('resume with:');
      expect(failed.stdout).toMatch(new RegExp(`^to run the failed tasks again from fresh sessions: squadron resume ${runId} .*--retry-failed$`, 'm'));

      // Without the flag: one line with the hint, exit 1 (the run's state), no model call, nothing
      // written — and before asking for the secrets, which would not make a plain resume work.
      const before = dbContents(dir);
      const requestsBefore = server.requests.length;
      const refused = await runCli(['resume', runId], { cwd: dir });
      expect(refused.code).toBe(1);
      expectOneClearError(refused);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(
        new RegExp(`^error: run ${runId} failed \\(task "one"\\); resuming would repeat the failure; to run its failed tasks again from fresh sessions: squadron resume ${runId} .*--retry-failed\n$`),
      );
      expect(server.requests.length).toBe(requestsBefore);
      expect(dbContents(dir)).toBe(before);

      commanderWorks = true;
      const retried = await runCli(['resume', runId, '--retry-failed'], { cwd: dir, env: SECRETS });
      expect(retried.code, retried.stderr).toBe(0);
      expect(retried.stdout.split('\n')[0]).toBe(`run ${runId}`);
      expect(retried.stdout).toContain('mission m completed');
      expect(retried.stdout).not.toMatch(/resume with|--retry-failed/);
      expect(retried.stderr).toContain('task one: failed before; attempt 2 starts from a fresh session\n');
      // A fresh session: the retry's first request holds the objective only, not the failed conversation.
      const retryRequests = server.requests.slice(requestsBefore);
      expect(retryRequests[0]!.canonical.system).toContain(commanderOf('one'));
      expect(retryRequests[0]!.canonical.messages).toHaveLength(1);
      expect(retryRequests.filter((r) => r.canonical.system.includes(commanderOf('two')))).toHaveLength(1);

      const inspect = await runCli(['inspect', runId, '--transcript'], { cwd: dir });
      expect(inspect.code, inspect.stderr).toBe(0);
      expect(inspect.stdout).toMatch(/^■ one · completed \(attempt 2\)/m);
      expect(inspect.stdout).toMatch(/── commander \(.*\) · failed · failed attempt 1 · /);
      expect(inspect.stdout).toContain('I would rather chat than call tools.');

      // A completed run resumed again: nothing to do, and no hint.
      const again = await runCli(['resume', runId], { cwd: dir, env: SECRETS });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).not.toMatch(/resume with|--retry-failed/);
    });
  });
});
