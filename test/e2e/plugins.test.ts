// End-to-end: Go Squadron plugins. test/support/goPlugin.mjs speaks go-plugin's protocol (the magic
// cookie, the handshake line, then the SDK's plugin.ToolPlugin gRPC service on a unix socket), as a
// plugin built with the Go SDK does. validate starts it to check plugins.<p>.<tool> references, plan
// lists its tools with their provenance, a run's worker calls one (configured with the block's
// settings), an installed plugin is found by runner.json, and a plugin that cannot start is an error
// naming it.

import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, REPO_ROOT } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, OFFLINE_MODEL_BLOCK, openRunDb, removeProjects, requestsOf, toolNames, workerOf, writeProject } from '../support/e2eProject.js';
import { withFakeModelServer } from '../support/fakeModelServer.js';
import { lastToolResult, toolCall, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 120_000 });
afterAll(removeProjects);

const PLUGIN_PROGRAM = join(REPO_ROOT, 'test', 'support', 'goPlugin.mjs');
/** A local source must be inside the project (as in Go): a launcher there starts the test plugin. */
const PLUGIN = './plugin.sh';
const LAUNCHER = { 'plugin.sh': `#!/bin/sh\nexec "${process.execPath}" "${PLUGIN_PROGRAM}" "$@"\n` };
function withPlugin(files: Record<string, string>): string {
  const dir = writeProject({ ...files, ...LAUNCHER });
  chmodSync(join(dir, 'plugin.sh'), 0o755);
  return dir;
}

function mission(modelBlock: string, plugin: string, tools = '[plugins.shouter.all]'): string {
  return `${modelBlock}
${plugin}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "t" {
    direct    = true
    objective = "Shout hello."
    tools     = ${tools}
  }
}
`;
}

const localPlugin = (source: string): string => `plugin "shouter" {
  source  = "${source}"
  version = "local"
  settings {
    suffix = "!"
  }
}`;

describe('plugin blocks', () => {
  it('validate starts the plugin and checks its tool references; plan lists its tools with provenance', async () => {
    const dir = withPlugin({ 'main.hcl': mission(OFFLINE_MODEL_BLOCK, localPlugin(PLUGIN)) });
    const ok = await runCli(['validate', dir], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('config is valid');

    const plan = await runCli(['plan', dir], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('plugins.shouter.shout  (task)');
    expect(plan.stdout).toContain('plugins.shouter.settings  (task)');

    const typo = withPlugin({ 'main.hcl': mission(OFFLINE_MODEL_BLOCK, localPlugin(PLUGIN), '[plugins.shouter.shoot]') });
    const bad = await runCli(['validate', typo], { cwd: typo });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/main\.hcl:\d+:\d+: error\[PLG003\]: plugin "shouter" has no tool "shoot"/);
    expect(bad.stderr).toContain('did you mean plugins.shouter.shout?');

    const offline = await runCli(['validate', typo, '--offline'], { cwd: typo });
    expect(offline.code).toBe(0);
    expect(offline.stderr).toContain('warning[PLG004]: plugin "shouter" was not started (offline)');
  });

  it('a worker calls a plugin tool; the plugin got its settings through Configure', async () => {
    const script = turnScript({
      [workerOf('t')]: [
        toolCall('plugins_shouter_shout', { text: 'hello' }),
        (req) => toolCall('plugins_shouter_settings', { seen: lastToolResult(req) }),
        (req) => ({ toolCalls: [{ name: 'task_complete', input: { summary: `shouted ${lastToolResult(req)}` } }] }),
      ],
    });
    await withFakeModelServer(script.respond, async (server) => {
      const dir = withPlugin({ 'main.hcl': mission(fakeModelBlock(server), localPlugin(PLUGIN)) });
      const r = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(r.code, r.stderr).toBe(0);
      const requests = requestsOf(server, workerOf('t'));
      expect(toolNames(requests[0])).toEqual(expect.arrayContaining(['plugins_shouter_shout', 'plugins_shouter_settings']));
      expect(lastToolResult(requests[1]!)).toBe('HELLO!');
      expect(JSON.parse(lastToolResult(requests[2]!))).toEqual({ suffix: '!' });
      const db = openRunDb(dir);
      const calls = db.prepare("SELECT tool_ref, status FROM tool_calls ORDER BY id").all() as { tool_ref: string; status: string }[];
      db.close();
      expect(calls).toEqual(expect.arrayContaining([{ tool_ref: "plugins.shouter.shout", status: "completed" }]));
    });
  });

  it('finds an installed plugin (github source, a version) by its runner.json under .squadron/plugins', async () => {
    const plugin = `plugin "shouter" {
  source  = "github.com/example/shouter"
  version = "v1.2.0"
}`;
    const dir = writeProject({ 'main.hcl': mission(OFFLINE_MODEL_BLOCK, plugin, '[plugins.shouter.shout]') });
    const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
    const installed = join(dir, '.squadron', 'plugins', platform, 'shouter', 'v1.2.0');
    const missing = await runCli(['validate', dir], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`error[PLG004]: plugin "shouter" (version v1.2.0) failed to load: it is not installed at ${installed}`);
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'runner.json'), JSON.stringify({ kind: 'node', entry: process.execPath, args: [PLUGIN_PROGRAM] }));
    const found = await runCli(['validate', dir], { cwd: dir });
    expect(found.code, found.stderr).toBe(0);
  });

  it('a plugin that cannot start is an error naming it, its program and why', async () => {
    const dir = writeProject({ 'main.hcl': mission(OFFLINE_MODEL_BLOCK, localPlugin('./broken.sh')), 'broken.sh': '#!/bin/sh\necho "licence key missing" >&2\nexit 3\n' });
    chmodSync(join(dir, 'broken.sh'), 0o755);
    const r = await runCli(['validate', dir], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`main.hcl:6:1: error[PLG004]: plugin "shouter" (version local) failed to start (${join(dir, 'broken.sh')}): it exited before its handshake (exit code 3); its stderr: licence key missing`);

    // A run does not start without its plugins (as Go fails the load): nothing is stored.
    const run = await runCli(['run', dir], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('plugin "shouter" (version local) failed to start');
    expect(run.stderr).toContain('licence key missing');
    const db = openRunDb(dir);
    expect(db.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 0 });
    db.close();

    const reserved = writeProject({ 'main.hcl': mission(OFFLINE_MODEL_BLOCK, 'plugin "http" {\n  source  = "./x"\n  version = "v1.0.0"\n}', '[builtins.http.get]') });
    const rr = await runCli(['validate', reserved], { cwd: reserved });
    expect(rr.code).toBe(1);
    expect(rr.stderr).toContain('error[PLG001]: plugin name "http" is reserved for internal tools');
    expect(rr.stderr).toContain('error[PLG002]: plugin "http": local source requires version = "local", got "v1.0.0"');
  });

  it('a local source outside the project or written as an absolute path is refused at its line, as Go does', async () => {
    const dir = writeProject({ 'main.hcl': mission(OFFLINE_MODEL_BLOCK, localPlugin('../elsewhere/plugin')) });
    const r = await runCli(['validate', dir], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`main.hcl:7:13: error[FIL002]: plugin "shouter": source path "../elsewhere/plugin" escapes the project root ${dir}`);
    expect(r.stderr).toContain('keep it inside the project folder');
    expect(r.stderr).not.toContain('PLG004');

    const abs = writeProject({ 'main.hcl': mission(OFFLINE_MODEL_BLOCK, localPlugin(PLUGIN_PROGRAM)) });
    const a = await runCli(['validate', abs], { cwd: abs });
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(`main.hcl:7:13: error[FIL006]: plugin "shouter": source path "${PLUGIN_PROGRAM}": absolute paths are not allowed`);
    expect(a.stderr).toContain('prefix it with "@/" for the project root');
  });
});
