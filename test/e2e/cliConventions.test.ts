// Holds every registered command to the conventions of docs/concepts/cli.md: `--help` works; a
// command that prints data has `--json`, whose document parses, starts with `schema_version` and
// uses only snake_case keys; under `--json` an error is a JSON document with a code; exit codes
// follow the one table. The command list is read from `squadron --help`, so a new command fails
// here until it is given its entry in CONVENTIONS.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir, type CliResult } from '../support/cli.js';
import { fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { taskComplete, turnScript } from '../support/turnScript.js';

interface Fixture {
  /** A valid project with depends_on, a router and send_to. */
  dir: string;
  /** A completed run of it, stored in the project's default database. */
  runId: string;
}

interface Conventions {
  /** Arguments that print data (exit 0); `--json` is appended. A string says why the command prints no data. */
  data: ((f: Fixture) => string[]) | string;
  /** A mistake a user can make with this command, and the error code it must be reported with. */
  mistake: (f: Fixture) => { args: string[]; code: string };
  /** Has `--json`, but prints data only in a state the fixture is not in (a waiting run): where its document is checked. */
  jsonElsewhere?: string;
}

const CONVENTIONS: Record<string, Conventions> = {
  init: { data: () => ['init', join(tempDir(), 'made')], mistake: () => ({ args: ['init', 'x', '--example', 'no-such-example'], code: 'not_found' }) },
  fmt: { data: (f) => ['fmt', '--check', f.dir], mistake: (f) => ({ args: ['fmt', join(f.dir, 'no-such.hcl')], code: 'not_found' }) },
  validate: { data: (f) => ['validate', f.dir, '--offline'], mistake: (f) => ({ args: ['validate', f.dir, '--var', 'novalue'], code: 'usage' }) },
  plan: { data: (f) => ['plan', f.dir, '--show-prompt'], mistake: (f) => ({ args: ['plan', f.dir, '--task', 'nope'], code: 'not_found' }) },
  tools: { data: (f) => ['tools', f.dir, '--task', 'triage'], mistake: (f) => ({ args: ['tools', f.dir, '--search', 'time', '--page', '0'], code: 'usage' }) },
  graph: { data: (f) => ['graph', f.dir], mistake: (f) => ({ args: ['graph', f.dir, '--mission', 'nope'], code: 'not_found' }) },
  // The fake model answers by conversation state, so running the mission again gives the same run.
  run: {
    data: (f) => ['run', f.dir],
    mistake: (f) => ({ args: ['run', f.dir, '--workspace', join(f.dir, 'mission.hcl')], code: 'run_refused' }),
  },
  resume: { data: (f) => ['resume', f.runId], mistake: (f) => ({ args: ['resume', 'run_nope', '--db', f.dir], code: 'not_found' }) },
  chat: {
    data: 'it prints one JSON document per reply, a line each (JSON Lines), as the person sends messages',
    jsonElsewhere: 'chat.test.ts',
    mistake: (f) => ({ args: ['chat', 'no_such_agent', f.dir], code: 'not_found' }),
  },
  test: { data: (f) => ['test', f.dir], mistake: (f) => ({ args: ['test', f.dir, '--var', 'novalue'], code: 'usage' }) },
  approve: { data: 'it decides requests of a waiting run', jsonElsewhere: 'approvals.test.ts', mistake: (f) => ({ args: ['approve', 'run_nope', '--db', f.dir], code: 'not_found' }) },
  deny: { data: 'it decides a request of a waiting run', jsonElsewhere: 'approvals.test.ts', mistake: (f) => ({ args: ['deny', f.runId, '--db', f.dir, '--reason', 'no'], code: 'refused' }) },
  answer: { data: 'it answers a question of a waiting run', jsonElsewhere: 'humanInput.test.ts', mistake: (f) => ({ args: ['answer', f.runId, '--db', f.dir], code: 'usage' }) },
  fork: { data: (f) => ['fork', f.runId, '--at', 'report', '--db', f.dir], mistake: (f) => ({ args: ['fork', 'run_nope', '--at', 'report', '--db', f.dir], code: 'not_found' }) },
  diff: { data: (f) => ['diff', f.runId, f.runId, '--db', f.dir], mistake: (f) => ({ args: ['diff', f.runId, 'run_nope', '--db', f.dir], code: 'not_found' }) },
  runs: { data: (f) => ['runs', '--db', f.dir], mistake: (f) => ({ args: ['runs', '--db', join(f.dir, 'nowhere')], code: 'not_found' }) },
  'runs prune': { data: (f) => ['runs', 'prune', '--db', f.dir, '--dry-run'], mistake: (f) => ({ args: ['runs', 'prune', '--db', f.dir, '--older-than', 'soon'], code: 'usage' }) },
  inspect: { data: (f) => ['inspect', f.runId, '--db', f.dir, '--transcript'], mistake: (f) => ({ args: ['inspect', f.runId, '--db', f.dir, '--task', 'nope'], code: 'not_found' }) },
  logs: { data: 'it prints a stream of events, one JSON object a line with --json', jsonElsewhere: 'logs.test.ts', mistake: (f) => ({ args: ['logs', 'run_nope', '--db', f.dir], code: 'not_found' }) },
  worker: { data: 'it runs until stopped and prints a line per unit of work it takes; it prints no data', mistake: (f) => ({ args: ['worker', '--db', f.dir], code: 'usage' }) },
  serve: { data: 'it serves the HTTP API until stopped and logs; it prints no data', mistake: (f) => ({ args: ['serve', f.dir, '--port', 'abc'], code: 'usage' }) },
  ui: { data: 'it serves the web console until stopped and prints its login link; it prints no data', mistake: (f) => ({ args: ['ui', f.dir, '--port', 'abc'], code: 'usage' }) },
  'token create': { data: (f) => ['token', 'create', 'conventions', '--db', f.dir], mistake: (f) => ({ args: ['token', 'create', '--db', f.dir], code: 'usage' }) },
  'token list': { data: (f) => ['token', 'list', '--db', f.dir], mistake: (f) => ({ args: ['token', 'list', '--db', f.dir, '--nope'], code: 'usage' }) },
  'token revoke': { data: 'it revokes a token and says so; it prints no data', mistake: (f) => ({ args: ['token', 'revoke', 'nope', '--db', f.dir], code: 'not_found' }) },
  'mcp login': { data: 'it logs in and says so; it prints no data', mistake: (f) => ({ args: ['mcp', 'login', 'nope', f.dir], code: 'not_found' }) },
  'mcp logout': { data: 'it forgets a login and says so; it prints no data', mistake: (f) => ({ args: ['mcp', 'logout', 'nope', f.dir], code: 'not_found' }) },
  'mcp serve': { data: 'it speaks MCP on stdin and stdout until the client closes them; it prints no data', mistake: (f) => ({ args: ['mcp', 'serve', f.dir, '--wait', 'abc'], code: 'usage' }) },
  'mcp status': { data: (f) => ['mcp', 'status', f.dir], mistake: (f) => ({ args: ['mcp', 'status', f.dir, '--var', 'novalue'], code: 'usage' }) },
  'vars list': { data: (f) => ['vars', 'list', '-c', f.dir], mistake: (f) => ({ args: ['vars', 'list', '-c', join(f.dir, 'no-such-dir')], code: 'not_found' }) },
  'vars get': { data: 'it says whether a value is set, and prints the value itself only with --reveal', mistake: (f) => ({ args: ['vars', 'get', 'nope', '-c', f.dir], code: 'not_found' }) },
  'vars set': { data: 'it stores a value and says so; it prints no data', mistake: (f) => ({ args: ['vars', 'set', '1bad', 'value', '-c', f.dir], code: 'usage' }) },
  'vars delete': { data: 'it removes a value and says so; it prints no data', mistake: (f) => ({ args: ['vars', 'delete', 'nope', '-c', f.dir], code: 'not_found' }) },
  docs: { data: () => ['docs', 'fmt'], mistake: () => ({ args: ['docs', 'no-such-topic'], code: 'not_found' }) },
};

/** Keys whose values are user data, reproduced verbatim (docs/concepts/cli.md). */
const VERBATIM = new Set(['output', 'input', 'inputs', 'structured', 'input_schema']);

/** Every key of a JSON document that is not snake_case, as a path. */
function nonSnakeKeys(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nonSnakeKeys(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => [
    ...(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(key) ? [] : [`${path}.${key}`]),
    ...(VERBATIM.has(key) ? [] : nonSnakeKeys(v, `${path}.${key}`)),
  ]);
}

function expectJsonDocument(result: CliResult, label: string): Record<string, unknown> {
  let doc: unknown;
  expect(() => (doc = JSON.parse(result.stdout)), `${label}: stdout is one JSON document\n${result.stdout}\n${result.stderr}`).not.toThrow();
  expect(Object.keys(doc as object)[0], `${label}: schema_version comes first`).toBe('schema_version');
  expect((doc as { schema_version: unknown }).schema_version).toBe(1);
  expect(nonSnakeKeys(doc), `${label}: keys that are not snake_case`).toEqual([]);
  return doc as Record<string, unknown>;
}

/** The error codes and their exit codes, as docs/concepts/cli.md states them. */
function documentedErrorCodes(): Map<string, number> {
  const page = readFileSync(join(REPO_ROOT, 'docs', 'concepts', 'cli.md'), 'utf8');
  return new Map([...page.matchAll(/^\| `([a-z_]+)` \| (\d+) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
}

let server: FakeModelServer;
const fixture: Fixture = { dir: '', runId: '' };
let registered: string[] = [];

beforeAll(async () => {
  const script = turnScript({
    'commander of task "triage"': [
      { toolCalls: [{ name: 'submit_output', input: { output: { head_line: 'urgent' } } }, { name: 'task_complete', input: { summary: 'urgent case', route: 'escalate' } }] },
    ],
    'commander of task "escalate"': [taskComplete('escalated')],
    'commander of task "notify"': [taskComplete('notified')],
    'commander of task "report"': [taskComplete('reported')],
  });
  server = await startFakeModelServer({ respond: script.respond });
  fixture.dir = writeProject({
    'mission.hcl': `${fakeModelBlock(server)}mission "conv" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "triage" {
    objective = "triage"
    tools     = [builtins.utils.current_time]
    output {
      field "head_line" {
        type     = "string"
        required = true
      }
    }
    router {
      route {
        target    = tasks.escalate
        condition = "the case is urgent"
      }
      route {
        target    = tasks.archive
        condition = "nothing to do"
      }
    }
  }
  task "escalate" {
    objective = "escalate"
    tools     = [builtins.utils.current_time]
    send_to   = [tasks.notify]
  }
  task "notify" {
    objective = "notify"
    tools     = [builtins.utils.current_time]
  }
  task "archive" {
    objective = "archive"
    tools     = [builtins.utils.current_time]
  }
  task "report" {
    objective  = "report"
    depends_on = [tasks.triage]
    tools      = [builtins.utils.current_time]
  }
}
`,
  });
  const run = await runCli(['run', fixture.dir, '--json'], { cwd: fixture.dir });
  expect(script.problems).toEqual([]);
  expect(run.code, run.stderr).toBe(0);
  fixture.runId = expectJsonDocument(run, 'run').run_id as string;

  const help = await runCli(['--help']);
  expect(help.code).toBe(0);
  const commandNames = (text: string): string[] =>
    [...text.slice(text.indexOf('Commands:')).matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
  // A command group (`mcp`) is held to the conventions through each of its subcommands (`mcp login`).
  for (const name of commandNames(help.stdout)) {
    const own = await runCli([name, '--help']);
    const subs = own.stdout.includes('Commands:') ? commandNames(own.stdout) : [];
    // A command with its own action and subcommands (`runs`, `runs prune`) is held to them all.
    registered.push(...(subs.length > 0 ? [...(CONVENTIONS[name] !== undefined ? [name] : []), ...subs.map((sub) => `${name} ${sub}`)] : [name]));
  }
}, 300_000);

afterAll(async () => {
  await server.close();
  removeProjects();
});

// Each test spawns the CLI many times (each command, several ways): generous timeouts for a busy machine.
describe('every registered command follows the CLI conventions', { timeout: 600_000 }, () => {
  it('every command of squadron --help has its conventions declared here', () => {
    expect(registered.length).toBeGreaterThanOrEqual(9);
    expect(registered.filter((name) => CONVENTIONS[name] === undefined), 'commands without an entry in CONVENTIONS').toEqual([]);
  });

  it('--help works for every command', async () => {
    for (const name of registered) {
      const result = await runCli([...name.split(' '), '--help']);
      expect([name, result.code, result.stdout.startsWith(`Usage: squadron ${name} `)]).toEqual([name, 0, true]);
    }
  });

  it('a command has --json exactly when it prints data, and its document follows the contract', async () => {
    for (const name of registered) {
      const conventions = CONVENTIONS[name]!;
      const help = await runCli([...name.split(' '), '--help']);
      expect([name, help.stdout.includes('--json')]).toEqual([name, typeof conventions.data === 'function' || conventions.jsonElsewhere !== undefined]);
      if (typeof conventions.data === 'string') continue;
      const result = await runCli([...conventions.data(fixture), '--json'], { cwd: fixture.dir });
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      expectJsonDocument(result, name);
    }
  });

  it('under --json an error is a JSON document with a documented code, and the exit code follows the table', async () => {
    const codes = documentedErrorCodes();
    expect(codes.size).toBeGreaterThanOrEqual(8);
    for (const name of registered) {
      const conventions = CONVENTIONS[name]!;
      const json = typeof conventions.data === 'function' || conventions.jsonElsewhere !== undefined;
      const mistake = conventions.mistake(fixture);
      const result = await runCli([...mistake.args, ...(json ? ['--json'] : [])], { cwd: fixture.dir });
      expect(result.stderr, name).toMatch(/^error: .+/m);
      expect(result.stderr, name).not.toMatch(/\n\s+at /);
      expect([name, result.code]).toEqual([name, codes.get(mistake.code)]);
      if (!json) {
        expect(result.stdout, name).toBe('');
        continue;
      }
      const doc = expectJsonDocument(result, name);
      expect([name, doc.error_code, typeof doc.error]).toEqual([name, mistake.code, 'string']);
      // An unknown flag is a usage error, reported in JSON too.
      const unknown = await runCli([...(typeof conventions.data === 'function' ? conventions.data(fixture) : mistake.args), '--json', '--no-such-flag'], { cwd: fixture.dir });
      expect([name, unknown.code, expectJsonDocument(unknown, `${name} --no-such-flag`).error_code]).toEqual([name, 2, 'usage']);
    }
  });

  it('an invalid config is reported in JSON with its diagnostics, by every command that needs a valid one', async () => {
    const text = readFileSync(join(fixture.dir, 'mission.hcl'), 'utf8').replace('objective = "notify"', 'objectiv = "notify"');
    const line = text.split('\n').findIndex((l) => l.includes('objectiv =')) + 1;
    const dir = writeProject({ 'mission.hcl': text });
    for (const args of [['plan', dir], ['tools', dir], ['graph', dir], ['run', dir]]) {
      const result = await runCli([...args, '--json'], { cwd: dir });
      const doc = expectJsonDocument(result, args[0]!);
      expect([args[0], result.code, doc.error_code]).toEqual([args[0], 2, 'invalid_config']);
      const diagnostics = doc.diagnostics as { severity: string; code: string; line: number; end_line: number }[];
      expect(diagnostics.map((d) => [d.severity, d.code, d.line])).toContainEqual(['error', 'SCH001', line]);
      expect(diagnostics.every((d) => typeof d.end_line === 'number')).toBe(true);
    }
    // validate reports the same config as its answer: exit 1, its own document.
    const validate = await runCli(['validate', dir, '--json'], { cwd: dir });
    expect([validate.code, expectJsonDocument(validate, 'validate').valid]).toEqual([1, false]);
  });

  it("keeps data that is not squadron's verbatim: a JSON schema keeps its own keys", async () => {
    const plan = expectJsonDocument(await runCli(['plan', fixture.dir, '--show-prompt', '--json'], { cwd: fixture.dir }), 'plan');
    const commander = (plan.tasks as { commander: { tool_definitions: { name: string; input_schema: object }[] } }[])[0]!.commander;
    const submit = commander.tool_definitions.find((d) => d.name === 'submit_output');
    expect(JSON.stringify(submit?.input_schema)).toContain('"additionalProperties"');
    const inspect = expectJsonDocument(await runCli(['inspect', fixture.runId, '--json'], { cwd: fixture.dir }), 'inspect');
    expect((inspect.tasks as { name: string; output?: unknown }[]).find((t) => t.name === 'triage')?.output).toEqual({ head_line: 'urgent' });
  });
});

describe('runs and inspect count every task of the mission', { timeout: 120_000 }, () => {
  it('runs shows tasks done out of the mission total, with the skipped ones', async () => {
    const json = expectJsonDocument(await runCli(['runs', '--json'], { cwd: fixture.dir }), 'runs');
    expect((json.runs as { tasks: unknown }[])[0]!.tasks).toEqual({ total: 5, completed: 4, failed: 0, skipped: 1 });
    const text = await runCli(['runs'], { cwd: fixture.dir });
    expect(text.stdout).toMatch(new RegExp(`${fixture.runId}\\s+conv\\s+completed\\s.*\\s4/5 \\(1 skipped\\)\\s`));
  });

  it('inspect shows the task routing left unstarted as skipped (human and JSON)', async () => {
    const doc = expectJsonDocument(await runCli(['inspect', fixture.runId, '--json'], { cwd: fixture.dir }), 'inspect');
    const tasks = doc.tasks as { name: string; status: string; routes: string[]; send_to: string[]; activated_by?: string }[];
    expect(tasks.map((t) => [t.name, t.status])).toEqual([
      ['triage', 'completed'],
      ['escalate', 'completed'],
      ['notify', 'completed'],
      ['archive', 'skipped'],
      ['report', 'completed'],
    ]);
    expect(tasks[0]).toMatchObject({ routes: ['escalate', 'archive'], send_to: [] });
    expect(tasks[2]).toMatchObject({ activated_by: 'escalate' });
    const text = await runCli(['inspect', fixture.runId], { cwd: fixture.dir });
    expect(text.stdout).toContain('– archive · skipped · not started (no route or send_to led to it)');
  });
});

describe('exit codes', { timeout: 120_000 }, () => {
  it('the same refusal exits the same way from run and resume', async () => {
    // A workspace that is a file refuses run; a mission missing from the config given refuses resume: both run_refused, exit 2.
    const other = writeProject({ 'mission.hcl': readFileSync(join(fixture.dir, 'mission.hcl'), 'utf8').replace('mission "conv"', 'mission "other"') });
    const resume = await runCli(['resume', fixture.runId, '--db', fixture.dir, '--config', other, '--json'], { cwd: fixture.dir });
    const run = await runCli(['run', fixture.dir, '--workspace', join(fixture.dir, 'mission.hcl'), '--json'], { cwd: fixture.dir });
    for (const [label, result] of [['resume', resume], ['run', run]] as const) {
      expect([label, result.code, expectJsonDocument(result, label).error_code]).toEqual([label, 2, 'run_refused']);
    }
  });

  it('help asked for is a success; no command at all is a usage error', async () => {
    expect((await runCli(['--help'])).code).toBe(0);
    expect((await runCli(['help', 'run'])).code).toBe(0);
    expect((await runCli([])).code).toBe(2);
  });
});
