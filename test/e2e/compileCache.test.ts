// The CLI's start-up compile cache (cli/compileCache.ts): `squadron` keeps V8 code cache in
// <os temp>/node-compile-cache, Node's own (module.enableCompileCache). NODE_DISABLE_COMPILE_CACHE=1
// turns it off, and a temp folder the CLI cannot write costs the cache only, never the command.
// scripts/node-matrix.sh runs it on each supported line.

import { chmodSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, type CliOptions } from '../support/cli.js';

const IS_ROOT = process.getuid?.() === 0;
/** As root every folder is writable: run the CLI as nobody to meet a read-only one. */
const AS_OTHER_USER: CliOptions = IS_ROOT ? { uid: 65534, gid: 65534 } : {};

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A fresh folder for the CLI to take as the OS temp folder, with the compile cache left to the CLI. */
function tempEnv(dir: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { TMPDIR: dir, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined, ...extra };
}

function newTemp(): string {
  const dir = tempDir('squadron-compile-cache-');
  made.push(dir);
  return dir;
}

const cacheFiles = (tmp: string): string[] => {
  const dir = join(tmp, 'node-compile-cache');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : [];
};


describe(`the compile cache on Node ${process.versions.node}`, () => {
  it('is kept in the OS temp folder, filled by the first command', async () => {
    const tmp = newTemp();
    const result = await runCli(['--version'], { env: tempEnv(tmp) });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(cacheFiles(tmp).length).toBeGreaterThan(1);
  });

  it('serves the commands after the first: a command that ran before writes no cache', async () => {
    const tmp = newTemp();
    expect(await runCli(['validate', 'examples/quickstart'], { env: tempEnv(tmp) })).toMatchObject({ code: 0, stderr: '' });
    const first = cacheFiles(tmp);
    const again = await runCli(['validate', 'examples/quickstart'], { env: tempEnv(tmp) });
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toContain('config is valid');
    expect(cacheFiles(tmp)).toEqual(first);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const tmp = newTemp();
    const result = await runCli(['--version'], { env: tempEnv(tmp, { NODE_DISABLE_COMPILE_CACHE: '1' }) });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(join(tmp, 'node-compile-cache'))).toBe(false);
  });

  it('costs nothing but itself when the temp folder cannot be written', async () => {
    const tmp = newTemp();
    chmodSync(tmp, 0o555);
    const result = await runCli(['validate', 'examples/quickstart'], { env: tempEnv(tmp), ...AS_OTHER_USER });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('config is valid');
    expect(readdirSync(tmp)).toEqual([]);
  });
});
