// Secrets through the CLI: a secret with `"` and `\` in it, echoed back by the model in a summary,
// a tool input and JSON text, never appears on stdout or stderr, in the run log, the cassette or the
// raw SQLite bytes (database and WAL); a too-short secret is refused with one line; a secret inside
// a model's base_url stays out of the error output.

import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, firstUserMessage, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

/** Contains `"` and `\`; every encoding of it (raw, JSON-escaped at any depth) ends in TAIL. */
const SECRET = 'sq"se\\cr-Zq8v7K';
const TAIL = 'cr-Zq8v7K';
const FAST_RETRIES = { SQUADRON_RETRY_BASE_DELAY_MS: '10' };

function missionHcl(server: FakeModelServer): string {
  return `
variable "tok" {
  secret = true
}
model "fake" {
  provider = "anthropic"
  base_url = "${server.anthropicBaseURL}"
  api_key  = "test-key-123"
}
mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "leak" {
    objective = "Keep the token \${vars.tok} safe and write a note"
    tools     = [builtins.files.write]
  }
}
`;
}

/**
 * The model echoes the secret raw, inside JSON, in a tool input and in the task summary. Before the
 * last reply, while the run holds its database open, `atLastTurn` runs (to read the WAL).
 */
function echoingScript(atLastTurn: () => void = () => {}) {
  return turnScript({
    'commander of task "leak"': [
      callAgent('worker', `Write the note for token ${SECRET}.`),
      (req) => {
        atLastTurn();
        return taskComplete(`Worker said: ${lastToolResult(req)}`);
      },
    ],
    'worker agent of task "leak"': [
      toolCall('builtins_files_write', { path: 'note.txt', content: `token=${SECRET}` }),
      () => ({ text: `Wrote it; the token is ${SECRET}; as JSON ${JSON.stringify({ token: SECRET })}` }),
    ],
  });
}

/** Every file a run leaves at rest: the database with its WAL, the logs, and the given extra files. */
function filesAtRest(dir: string, extra: string[] = []): string[] {
  const squadron = join(dir, '.squadron');
  const db = join(squadron, 'squadron.db');
  const logs = existsSync(join(squadron, 'logs')) ? readdirSync(join(squadron, 'logs')).map((f) => join(squadron, 'logs', f)) : [];
  return [db, `${db}-wal`, `${db}-shm`, ...logs, ...extra].filter((f) => existsSync(f));
}

function expectNoSecret(result: CliResult, files: string[]): void {
  expect(result.stdout, 'stdout').not.toContain(TAIL);
  expect(result.stderr, 'stderr').not.toContain(TAIL);
  for (const file of files) expect(readFileSync(file).includes(Buffer.from(TAIL)), `${file} holds the secret`).toBe(false);
}

describe('secrets', () => {
  it('never show on the terminal or at rest, however the model echoes them, and the recording replays', async () => {
    let dir = '';
    const walSnapshots: Buffer[] = [];
    // The WAL exists only while the run is open (it is checkpointed away on close): read it mid-run.
    const script = echoingScript(() => {
      const wal = join(dir, '.squadron', 'squadron.db-wal');
      if (existsSync(wal)) walSnapshots.push(readFileSync(wal));
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      dir = writeProject({ 'mission.hcl': missionHcl(server) });
      const cassette = join(dir, 'rec.jsonl');
      const env = { SQUADRON_VAR_tok: SECRET };
      const json = await runCli(['run', dir, '--json', '--record', cassette], { cwd: dir, env });
      expect(json.code, json.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      // The model really received it, and the tool really wrote it: only the outputs hide it.
      expect(firstUserMessage(server.requests[0]!)).toContain(SECRET);
      const runId = JSON.parse(json.stdout).run_id as string;
      expect(readFileSync(join(dir, '.squadron', 'workspaces', runId, 'note.txt'), 'utf8')).toBe(`token=${SECRET}`);
      // The summary holds JSON text holding the secret: the --json document escapes it twice.
      expect(JSON.parse(json.stdout).tasks.leak.summary).toContain('[REDACTED:vars.tok]');
      const files = filesAtRest(dir, [cassette]);
      expect(files.some((f) => f.endsWith('.jsonl') && f.includes('logs'))).toBe(true);
      expectNoSecret(json, files);
      expect(walSnapshots.length).toBeGreaterThan(0);
      for (const wal of walSnapshots) {
        expect(wal.includes(Buffer.from('[REDACTED:vars.tok'))).toBe(true);
        expect(wal.includes(Buffer.from(TAIL)), 'the WAL holds the secret').toBe(false);
      }
      const log = readFileSync(files.find((f) => f.includes('logs'))!, 'utf8');
      expect(log).toContain('[REDACTED:vars.tok');
      expect(readFileSync(cassette, 'utf8')).toContain('[REDACTED:vars.tok');

      // The human report and the stored run, read back by inspect.
      const human = await runCli(['run', dir], { cwd: dir, env });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toContain('[REDACTED:vars.tok]');
      const inspect = await runCli(['inspect', runId, '--transcript', '--db', dir], { cwd: dir });
      expect(inspect.code, inspect.stderr).toBe(0);
      expectNoSecret(human, filesAtRest(dir, [cassette]));
      expectNoSecret(inspect, []);

      // Replay compares the live request redacted, and gives recorded tool inputs their secret back.
      const modelCalls = server.requests.length;
      const replayed = await runCli(['run', dir, '--json', '--replay', cassette], { cwd: dir, env });
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(server.requests.length).toBe(modelCalls);
      const replayId = JSON.parse(replayed.stdout).run_id as string;
      expect(readFileSync(join(dir, '.squadron', 'workspaces', replayId, 'note.txt'), 'utf8')).toBe(`token=${SECRET}`);
      expectNoSecret(replayed, filesAtRest(dir, [cassette]));
    } finally {
      await server.close();
    }
  }, 180_000);

  it('refuses a secret shorter than 4 characters with one line that does not print it', async () => {
    const dir = writeProject({
      'mission.hcl': `variable "pin" {\n  secret = true\n}\nmodel "fake" {\n  provider = "anthropic"\n  api_key  = vars.pin\n}\nmission "m" {\n  commander { model = models.fake.claude_haiku_4_5 }\n  task "a" {\n    objective = "x"\n    tools     = [builtins.utils.current_time]\n  }\n}\n`,
    });
    const short = 'Q"\\';
    const run = await runCli(['run', dir], { cwd: dir, env: { SQUADRON_VAR_pin: short } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error[SCH018]: secret variable "pin" is 3 characters long (from SQUADRON_VAR_pin); a secret must be at least 4 characters');
    expect(run.stdout + run.stderr).not.toContain(short);
    const validate = await runCli(['validate', dir, '--var', `pin=${short}`], { cwd: dir });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('SCH018');
    expect(validate.stdout + validate.stderr).not.toContain(short);
    expect(existsSync(join(dir, '.squadron', 'squadron.db'))).toBe(false);
  }, 180_000);

  it('masks a secret that a diagnostic quotes (a secret used where a number is expected)', async () => {
    const dir = writeProject({
      'mission.hcl': `variable "tok" {\n  secret = true\n}\nmodel "fake" {\n  provider = "anthropic"\n  api_key  = "test-key-123"\n}\nmission "m" {\n  commander { model = models.fake.claude_haiku_4_5 }\n  task "a" {\n    objective = "x"\n    max_turns = vars.tok\n    tools     = [builtins.utils.current_time]\n  }\n}\n`,
    });
    for (const args of [['validate', dir], ['validate', dir, '--format', 'json'], ['run', dir], ['plan', dir]]) {
      const result = await runCli(args, { cwd: dir, env: { SQUADRON_VAR_tok: SECRET } });
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stdout + result.stderr, args.join(' ')).toContain('expected a number, got');
      expect(result.stdout + result.stderr, args.join(' ')).toContain('[REDACTED:vars.tok]');
      expectNoSecret(result, []);
    }
  }, 180_000);

  it('keeps a secret inside a model base_url out of stderr and the --json error', async () => {
    // A port that was just listening and is now closed: every connection is refused at once.
    const closed = createServer();
    const url = await listenLocal(closed);
    await closeServer(closed);
    const gateway = 'gw-token"5521\\Zq8v7K';
    const dir = writeProject({
      'mission.hcl': `variable "gw" {\n  secret = true\n}\nmodel "fake" {\n  provider = "anthropic"\n  base_url = "${url}/\${vars.gw}/v1"\n  api_key  = "test-key-123"\n}\nmission "m" {\n  commander { model = models.fake.claude_haiku_4_5 }\n  task "a" {\n    objective = "x"\n    tools     = [builtins.utils.current_time]\n  }\n}\n`,
    });
    const result = await runCli(['run', dir, '--json'], { cwd: dir, env: { SQUADRON_VAR_gw: gateway, ...FAST_RETRIES } });
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout);
    expect(doc.error).toContain(`connection to ${url}/[REDACTED:vars.gw]/v1 failed`);
    expect(result.stderr).toContain('[REDACTED:vars.gw]');
    expectNoSecret(result, filesAtRest(dir));
  }, 180_000);
});
