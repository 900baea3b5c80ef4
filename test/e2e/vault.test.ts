// End-to-end: the project's vault. `squadron vars set|list|get|delete` keep values encrypted in
// .squadron/vars.vault (key in .squadron/vault.key, mode 0600, or SQUADRON_VAULT_KEY); a Go config that
// reads vars.<name> without a variable block resolves from the vault; the value is a secret, redacted
// in what a run stores and prints; a wrong key is VLT001.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { removeProjects, writeProject } from '../support/e2eProject.js';
import { withFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, turnScript, lastToolResult } from '../support/turnScript.js';

// Each command that opens the vault derives its key (Argon2id, 64 MiB): seconds each, and several times
// that with the pure-JS one on Node.js 22 on a busy machine.
vi.setConfig({ testTimeout: 480_000 });
afterAll(removeProjects);

const SECRET = 'tok-Zq8v7K-vault-only';

function missionHcl(server: FakeModelServer | undefined): string {
  const base = server ? `\n  base_url = "${server.anthropicBaseURL}"` : '';
  return `model "fake" {
  provider = "anthropic"${base}
  api_key  = "test-key-123"
}
mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "leak" {
    objective = "Keep the token \${vars.deploy_token} safe"
    tools     = [builtins.utils.current_time]
  }
}
`;
}

/** Every byte under `dir` (the database, the run log…), as one string. */
function allBytes(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (statSync(path).isFile()) out += readFileSync(path).toString('latin1');
  }
  return out;
}

describe('squadron vars and the vault', () => {
  it('sets, lists, gets (only with --reveal) and deletes values, encrypted at rest with a 0600 key', async () => {
    const dir = writeProject({ 'main.hcl': missionHcl(undefined) });
    const set = await runCli(['vars', 'set', 'deploy_token', SECRET], { cwd: dir });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe("Variable 'deploy_token' set\n");
    expect(set.stderr).toContain('created the vault key');
    expect(statSync(join(dir, '.squadron', 'vault.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, '.squadron', 'vars.vault')).mode & 0o777).toBe(0o600);
    const raw = readFileSync(join(dir, '.squadron', 'vars.vault'));
    expect(raw.subarray(0, 8).toString('ascii')).toBe('SQVAULT1');
    expect(raw.toString('latin1')).not.toContain(SECRET);
    expect(raw.toString('latin1')).not.toContain('deploy_token');

    const list = await runCli(['vars', 'list'], { cwd: dir });
    expect(list.stdout).toBe('deploy_token=********\n');
    const get = await runCli(['vars', 'get', 'deploy_token'], { cwd: dir });
    expect(get.stdout).toBe(`deploy_token is set (${SECRET.length} characters); pass --reveal to print it\n`);
    expect(get.stdout + get.stderr).not.toContain(SECRET);
    const reveal = await runCli(['vars', 'get', 'deploy_token', '--reveal'], { cwd: dir });
    expect(reveal.stdout).toBe(`${SECRET}\n`);

    const wrong = await runCli(['vars', 'list'], { cwd: dir, env: { SQUADRON_VAULT_KEY: 'not-the-key' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('the vault key does not open');
    const badValidate = await runCli(['run', dir], { cwd: dir, env: { SQUADRON_VAULT_KEY: 'not-the-key' } });
    expect(badValidate.code).not.toBe(0);
    expect(badValidate.stderr).toContain('error[VLT001]');

    const del = await runCli(['vars', 'delete', 'deploy_token'], { cwd: dir });
    expect(del.stdout).toBe("Variable 'deploy_token' deleted\n");
    expect((await runCli(['vars', 'list'], { cwd: dir })).stdout).toBe('No variables set\n');
    const missing = await runCli(['vars', 'get', 'deploy_token'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('variable "deploy_token" is not in the vault');
  });

  it('a vars.<name> without a variable block resolves from the vault and is redacted as a secret', async () => {
    const script = turnScript({
      'commander of task "leak"': [callAgent('worker', `Check the token ${SECRET}.`), (req) => taskComplete(`Worker said: ${lastToolResult(req)}`)],
      'worker agent of task "leak"': [() => ({ text: `The token is ${SECRET}` })],
    });
    await withFakeModelServer(script.respond, async (server) => {
      const dir = writeProject({ 'main.hcl': missionHcl(server) });
      const without = await runCli(['validate', dir], { cwd: dir });
      expect(without.code).toBe(1);
      expect(without.stderr).toContain('unknown variable "deploy_token"');

      // From standard input: the value never appears on a command line.
      const set = await runCli(['vars', 'set', 'deploy_token'], { cwd: dir, stdin: `${SECRET}\n` });
      expect(set.code, set.stderr).toBe(0);
      const valid = await runCli(['validate', dir, '--json'], { cwd: dir });
      expect(valid.code, valid.stderr).toBe(0);
      const summary = JSON.parse(valid.stdout) as { summary: { variables: { name: string; secret: boolean; source: string }[] } };
      expect(summary.summary.variables).toEqual([{ name: 'deploy_token', secret: true, source: 'vault' }]);

      const r = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(r.code, r.stderr).toBe(0);
      // The model saw the value (the objective needs it) …
      expect(JSON.stringify(server.requests)).toContain(SECRET);
      // … but nothing the run printed or stored holds it.
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout).toContain('[REDACTED');
      expect(allBytes(join(dir, '.squadron'))).not.toContain(SECRET);
    });
  });
});
