// scripts/with-node.sh, which runs a command under a Node line from the npm registry (CI's Node 26):
// the command sees that node first on PATH, the machine's npm run by it, and npm_config_nodedir at
// its headers. A cache folder holding a stand-in node lets this run without downloading anything.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'with-node.sh');

/** A cache with a stand-in `node` of line `major` that prints its version (and runs npm's script as a no-op). */
function fakeCache(major: string): string {
  const cache = mkdtempSync(join(tmpdir(), 'squadron-with-node-'));
  const bin = join(cache, `${major}.0.1`, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'node'), `#!/bin/sh\necho "v${major}.0.1 $*"\n`);
  chmodSync(join(bin, 'node'), 0o755);
  spawnSync('ln', ['-s', `${major}.0.1`, join(cache, major)]);
  return cache;
}

function withNode(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync('bash', [SCRIPT, ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/with-node.sh', () => {
  it('runs the command with that node and npm run by it first on PATH, native addons pointed at its headers', () => {
    const cache = fakeCache('26');
    const r = withNode(['--', 'sh', '-c', 'node --version; npm --version; echo "$npm_config_nodedir"'], { SQUADRON_NODE_CACHE: cache });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [nodeLine, npmLine, nodedir] = r.stdout.trim().split('\n');
    expect(nodeLine).toBe('v26.0.1 --version');
    // npm is the machine's npm-cli.js, run by the fetched node.
    expect(npmLine).toMatch(/^v26\.0\.1 \/.*npm-cli\.js --version$/);
    expect(nodedir).toBe(join(cache, '26.0.1'));
  });

  it('prints, with --env, the lines that put the node on PATH in the current shell', () => {
    const cache = fakeCache('24');
    const r = withNode(['--node', '24', '--env'], { SQUADRON_NODE_CACHE: cache });
    expect(r.code).toBe(0);
    const shell = spawnSync('bash', ['-c', `${r.stdout}\nnode --version; command -v npx`], { encoding: 'utf8' });
    expect(shell.stdout.trim().split('\n')).toEqual(['v24.0.1 --version', join(cache, '24.0.1', 'squadron-bin', 'npx')]);
    expect(readFileSync(join(cache, '24.0.1', 'squadron-bin', 'npx'), 'utf8')).toContain('npx-cli.js');
  });

  it('passes the command\'s exit status through', () => {
    expect(withNode(['sh', '-c', 'exit 7'], { SQUADRON_NODE_CACHE: fakeCache('26') }).code).toBe(7);
  });

  it.each([
    [['--node', 'lts', 'true'], "with-node: --node needs a Node major number such as 26, got 'lts'"],
    [['--fast', 'true'], "with-node: unknown option '--fast' (try --help)"],
    [[], 'with-node: no command given (try --help)'],
  ])('refuses %j with one line and exit status 2', (args, message) => {
    expect(withNode(args)).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
  });
});
