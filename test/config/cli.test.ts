// `squadron validate` and `squadron docs` through the built CLI (dist/cli/main.cjs), as a user runs
// them: output, exit codes (0 valid, 1 invalid, 2 usage), JSON contract, MCP check, no stack traces.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, REPO_ROOT, runCli } from '../support/cli.js';
import { MODEL, removeTempProjects, tempProject, withMission } from './support.js';

afterAll(removeTempProjects);
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`build the CLI first (npm run build): ${CLI} is missing`);
});

const valid = withMission('  task "a" {\n    objective = "x"\n    tools     = [builtins.http.get]\n  }\n');

describe('squadron validate', () => {
  test('a valid config exits 0 and prints the summary', async () => {
    const dir = tempProject({ 'main.hcl': valid });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('models     claude (anthropic)');
    expect(r.stdout).toContain('mission m: commander claude.claude_sonnet_5_5, 1 task, max_parallel 4');
    expect(r.stdout).toContain('  a     worker (1 tool, claude.claude_sonnet_5_5)');
    expect(r.stdout).toMatch(/config is valid\n$/);
  });

  test('an invalid config exits 1 with file:line:col, the source line, a caret and the hint', async () => {
    const dir = tempProject({ 'cfg/main.hcl': valid.replace('[builtins.http.get]', '["http_get"]') });
    const r = await runCli(['validate', 'cfg'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        'cfg/main.hcl:12:18: error[REF004]: "http_get" is a string, not a reference',
        '  12 |     tools     = ["http_get"]',
        '     |                  ^^^^^^^^^^',
        '  = hint: write a reference such as builtins.http.get',
        '',
        '1 file loaded from cfg',
        'config is invalid: 1 error',
        '',
      ].join('\n'),
    );
    expect(r.stdout).toBe('');
  });

  test('warnings alone keep exit 0: printed on stderr, the summary says how many', async () => {
    const dir = tempProject({ 'main.hcl': `${MODEL}agent "x" {\n  model = models.claude.claude_haiku_4_5\n  personality = "p"\n}\n${valid.slice(MODEL.length).replace('tools     = [builtins.http.get]', 'agents = [agents.x]\n    reasoning = "low"')}` });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('main.hcl:17:5: warning[GRA009]: reasoning has no effect');
    expect(r.stdout).toMatch(/config is valid \(1 warning\)\n$/);
  });

  test('--json (and its alias --format json) prints the documented contract', async () => {
    const dir = tempProject({ 'main.hcl': valid.replace('tools     = [builtins.http.get]', 'tools = [builtins.http.get]\n    discovery = true') });
    const ok = await runCli(['validate', '--json'], { cwd: dir });
    expect((await runCli(['validate', '--format', 'json'], { cwd: dir })).stdout).toBe(ok.stdout);
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.stdout) as { valid: boolean; diagnostics: unknown[]; summary: { missions: { tasks: unknown[] }[] } };
    expect(out.valid).toBe(true);
    expect(out.diagnostics).toEqual([]);
    expect(out.summary.missions[0]!.tasks[0]).toEqual({
      name: 'a',
      worker: { tools: 1, model: 'claude.claude_sonnet_5_5', model_via: 'commander' },
      agents: [],
      agents_via: 'none',
      depends_on: [],
      routes: [],
      send_to: [],
    });
    const bad = tempProject({ 'main.hcl': `${MODEL}model "claude" {\n  provider = "openai"\n}\n` });
    const r = await runCli(['validate', '--format', 'json'], { cwd: bad });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      schema_version: 1,
      valid: false,
      diagnostics: [
        {
          severity: 'error',
          code: 'SCH008',
          message: 'model "claude" is declared twice (first at main.hcl:1:7)',
          hint: 'rename one of them or remove the duplicate',
          file: 'main.hcl',
          line: 5,
          column: 7,
          end_line: 5,
          end_column: 15,
          related: { label: 'first at', file: 'main.hcl', line: 1, column: 7 },
        },
      ],
      summary: null,
      files: { root: '.', loaded: 1, skipped: [] },
    });
  });

  test('--var supplies a variable; an undeclared --var is reported', async () => {
    const dir = tempProject({ 'main.hcl': `variable "key" {\n  secret = true\n}\n${valid.replace('"test-key"', 'vars.key')}` });
    const withVar = await runCli(['validate', '--var', 'key=abcd'], { cwd: dir });
    expect([withVar.code, withVar.stderr]).toEqual([0, '']);
    expect((await runCli(['validate'], { cwd: dir, env: { SQUADRON_VAR_key: 'abcd' } })).stderr).toBe('');
    const r = await runCli(['validate', '--var', 'key=abcd', '--var', 'kye=x'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('<command line>: error[REF013]: --var kye: no variable "kye" is declared');
  });

  test('without a secret the config still validates: one REF007 warning per variable, and run refuses it', async () => {
    const body = valid.replace('"test-key"', 'vars.key').replace('objective = "x"', 'objective = "x"\n    max_turns = vars.turns');
    const dir = tempProject({ 'main.hcl': `variable "key" {\n  secret = true\n}\nvariable "turns" {}\n${body}` });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr.match(/warning\[REF007\]: .*/g)).toEqual([
      'warning[REF007]: variable "key" has no value, so the value that uses it is not checked; run needs one: pass --var key=… or set SQUADRON_VAR_key',
      'warning[REF007]: variable "turns" has no value, so the value that uses it is not checked; run needs one: pass --var turns=… or set SQUADRON_VAR_turns',
    ]);
    expect(r.stdout).toMatch(/config is valid \(2 warnings\)\n$/);
    // A value the variable does have is still checked.
    const bad = await runCli(['validate', '--var', 'turns=many'], { cwd: dir });
    expect([bad.code, bad.stderr.match(/error\[\w+\]/g)]).toEqual([1, ['error[SCH007]']]);
    // run needs every value: the same config is refused there, with the errors at each use.
    const run = await runCli(['run', '.'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr.match(/error\[REF007\]/g)).toHaveLength(2);
  });

  test('a whole MCP server granted with .all is named in the summary, not counted as one tool', async () => {
    const dir = tempProject({
      'main.hcl': `mcp "fs" {\n  command = "node"\n  args    = ["server.mjs"]\n}\ntoolset "files" {\n  tools = [mcp.fs.all]\n}\n${valid.replace('[builtins.http.get]', '[builtins.http.get, mcp.fs.all]')}`,
    });
    const r = await runCli(['validate', '--offline'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('toolsets   files (mcp.fs.all)');
    expect(r.stdout).toContain('  a     worker (1 tool + mcp.fs.all, claude.claude_sonnet_5_5)');
    const json = JSON.parse((await runCli(['validate', '--offline', '--format', 'json'], { cwd: dir })).stdout) as {
      summary: { toolsets: unknown[]; missions: Array<{ tasks: Array<{ worker: unknown }> }> };
    };
    expect(json.summary.toolsets).toEqual([{ name: 'files', tools: 1, mcp_all: ['fs'] }]);
    expect(json.summary.missions[0]!.tasks[0]!.worker).toEqual({ tools: 2, model: 'claude.claude_sonnet_5_5', model_via: 'commander', mcp_all: ['fs'] });
  });

  test('an MCP server whose config needs a missing variable is shown, kept, and not contacted', async () => {
    const dir = tempProject({
      'main.hcl': `variable "token" {\n  secret = true\n}\nmcp "gh" {\n  url     = "http://127.0.0.1:9/mcp"\n  headers = { Authorization = "Bearer \${vars.token}" }\n}\n${valid.replace('[builtins.http.get]', '[builtins.http.get, mcp.gh.search]')}`,
    });
    const r = await runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mcp        gh (http, needs vars.token)');
    expect(r.stdout).toContain('  a     worker (2 tools, claude.claude_sonnet_5_5)');
    expect(r.stderr).toContain('warning[MCP002]: mcp server "gh" was not contacted, so its tool references are unchecked: its config needs vars.token, which has no value');
    const json = JSON.parse((await runCli(['validate', '--format', 'json'], { cwd: dir })).stdout) as { summary: { mcp_servers: unknown[] } };
    expect(json.summary.mcp_servers).toEqual([{ name: 'gh', transport: 'http', needs_variables: ['token'] }]);
    // tools and plan load it too, and say why its tools are missing instead of trying to connect.
    const tools = await runCli(['tools', '.', '--task', 'a'], { cwd: dir });
    expect([tools.code, tools.stdout.includes('builtins_http_get')]).toEqual([0, true]);
    expect(tools.stderr).toContain('warning: tool mcp.gh.search is unavailable: mcp server "gh" needs vars.token, which has no value: pass it with --var');
  });

  test('a retired model is an error with its date and the key to move to; an unpriced one a warning', async () => {
    const src = valid.replace('model = models.claude.claude_sonnet_5_5', 'model = models.claude.claude_3_7_sonnet');
    const retired = await runCli(['validate'], { cwd: tempProject({ 'main.hcl': src }) });
    expect(retired.code).toBe(1);
    expect(retired.stderr).toContain(
      [
        'main.hcl:8:13: error[MOD002]: models.claude.claude_3_7_sonnet (claude-3-7-sonnet-20250219) was retired by Anthropic on 2026-02-19: requests to it fail',
        '  8 |     model = models.claude.claude_3_7_sonnet',
        '    |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
        '  = hint: use models.claude.claude_sonnet_5_5 instead',
      ].join('\n'),
    );
    const unpriced = await runCli(['validate'], { cwd: tempProject({ 'main.hcl': valid.replace('claude_sonnet_5_5', 'claude_haiku_5_5') }) });
    expect(unpriced.code).toBe(0);
    expect(unpriced.stderr).toContain('main.hcl:8:13: warning[MOD003]: no pricing for models.claude.claude_haiku_5_5 (claude-haiku-5-5): its cost counts as 0; add a pricing block');
    expect(unpriced.stdout).toMatch(/config is valid \(1 warning\)\n$/);
  });

  test('usage errors exit 2 without a stack trace', async () => {
    const dir = tempProject({ 'main.hcl': valid });
    const badFormat = await runCli(['validate', '--format', 'yaml'], { cwd: dir });
    expect(badFormat.code).toBe(2);
    const badVar = await runCli(['validate', '--var', 'novalue'], { cwd: dir });
    expect(badVar.code).toBe(2);
    expect(badVar.stderr).toContain('--var expects key=value');
    for (const r of [badFormat, badVar]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('a missing path exits 1 with a clear message', async () => {
    const r = await runCli(['validate', 'nope'], { cwd: tempProject({}) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^nope: error\[FIL001\]: config path \S+\/nope does not exist\n/);
  });

  test('mcp tool references are checked against the running server unless --offline', async () => {
    const server = join(REPO_ROOT, 'test', 'support', 'mcpStdioServer.mjs');
    const src = `mcp "t" {\n  command = "${process.execPath}"\n  args    = ["${server}"]\n}\n${withMission('  task "a" {\n    objective = "x"\n    tools = [mcp.t.echo, mcp.t.ecko]\n  }\n')}`;
    const dir = tempProject({ 'main.hcl': src });
    const online = await runCli(['validate'], { cwd: dir });
    expect(online.code).toBe(1);
    expect(online.stderr).toContain('main.hcl:16:26: error[MCP001]: mcp server "t" has no tool "ecko"');
    expect(online.stderr).toContain('= hint: did you mean mcp.t.echo?');
    const offline = await runCli(['validate', '--offline'], { cwd: dir });
    expect(offline.code).toBe(0);
  });
});

describe('squadron docs', () => {
  test('without a topic it lists the topics with their one-line descriptions', async () => {
    const r = await runCli(['docs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Documentation topics/);
    expect(r.stdout).toMatch(/\n {2}worker +The worker is the dynamic agent/);
    expect(r.stdout).toMatch(/\n {2}validate +squadron validate checks a config/);
  });

  test('a topic prints its page', async () => {
    const r = await runCli(['docs', 'toolset']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# toolset\n/);
    const qualified = await runCli(['docs', 'blocks/task']);
    expect(qualified.stdout).toMatch(/^# task\n/);
  });

  test('an unknown topic exits 2 with suggestions', async () => {
    const r = await runCli(['docs', 'toolsett']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown docs topic "toolsett". did you mean toolset');
  });
});
