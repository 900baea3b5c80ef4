// Installing the package as a user does, outside the clone: `npm pack` makes the tarball, `npm install
// -g` puts it in a fresh prefix, and from a folder outside the repository `squadron init --example
// quickstart` then `squadron run` completes offline (the model replayed from the cassette); `npx`
// with the package runs it the same way. The npm name is squadron-agents; the command is squadron.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../support/cli.js';

/** npm and npx of the Node that runs the suite, found on PATH as a user's shell finds them. */
const NPM = 'npm';
const NPX = 'npx';
/** No key anywhere: the quickstart must not need one. */
const USER_ENV = { ...process.env, NO_COLOR: '1', SQUADRON_VAR_anthropic_api_key: undefined, SQUADRON_VAR_openai_api_key: undefined };

function sh(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = USER_ENV): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 1_200_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the package, installed outside the repository', () => {
  it('npm pack, npm install -g into a fresh prefix, then init and run the quickstart offline from another folder; npx too', { timeout: 1_800_000 }, () => {
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'))).toMatchObject({ name: 'squadron-agents', bin: { squadron: 'dist/cli/main.cjs' } });
    const packed = tempDir('squadron-pack-');
    // dist/ is built before the suite runs (pretest): the tarball ships it as it is.
    const pack = sh(NPM, ['pack', '--ignore-scripts', '--pack-destination', packed], REPO_ROOT);
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = join(packed, readdirSync(packed).find((f) => f.endsWith('.tgz'))!);
    expect(tarball).toMatch(/squadron-agents-[\d.]+\.tgz$/);

    const prefix = tempDir('squadron-prefix-');
    const install = sh(NPM, ['install', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev'], packed);
    expect(install.status, install.stderr).toBe(0);
    const squadron = join(prefix, 'bin', 'squadron');

    const away = tempDir('squadron-user-');
    const init = sh(squadron, ['init', 'qs', '--example', 'quickstart'], away);
    expect(init.status, init.stderr).toBe(0);
    const run = sh(squadron, ['run', 'qs', '--json'], away);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('replays its responses from');
    expect((JSON.parse(run.stdout) as { status: string }).status).toBe('completed');
    expect(sh(squadron, ['--version'], away).stdout.trim()).toBe(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version);

    // npx with the package (what `npx squadron-agents run …` resolves to once published: its one bin, squadron).
    const npx = sh(NPX, ['--yes', '--prefer-offline', '--package', tarball, 'squadron', 'run', 'qs', '--json'], away);
    expect(npx.status, npx.stderr).toBe(0);
    expect((JSON.parse(npx.stdout) as { status: string }).status).toBe('completed');
  });
});
