// cli/codeCache.ts, the CLI's code cache where Node has no compile cache of its own (Node 20): run in
// child processes on any Node line, against a folder of CommonJS files standing in for the bundle's
// chunks. The cached modules must behave as Node's own loader makes them behave; the cache is written
// once, then read (not rewritten) while it fits, and a cache V8 rejects is replaced.

import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../support/cli.js';

const CODE_CACHE = pathToFileURL(join(REPO_ROOT, 'dist', 'cli', 'codeCache.js')).href;
const IS_ROOT = process.getuid?.() === 0;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in bundle: an entry requiring a chunk, which uses what Node gives a CommonJS module. */
function bundle(): { dir: string; cache: string } {
  const root = tempDir('squadron-code-cache-');
  made.push(root);
  const dir = join(root, 'bundle');
  mkdirSync(join(dir, 'chunks'), { recursive: true });
  writeFileSync(
    join(dir, 'chunks', 'work-abc123.cjs'),
    [
      "const { basename } = require('node:path');",
      'exports.describe = () => ({',
      '  file: basename(__filename), dir: basename(__dirname), self: module.exports === exports, thisIsExports: this === exports,',
      "  resolved: basename(require.resolve('./other-def456.cjs')), cached: Object.keys(require.cache).some((k) => k.endsWith('work-abc123.cjs')),",
      "  other: require('./other-def456.cjs').value,",
      '});',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'chunks', 'other-def456.cjs'), 'module.exports = { value: 42 };\n');
  return { dir, cache: join(root, 'cache') };
}

/** Starts the cache for `dir`, requires its chunk, prints what the chunk saw; returns that and the exit. */
function runChild(dir: string, cache: string): { code: number | null; seen: unknown; stderr: string } {
  const script = [
    `const { startCodeCache } = await import(${JSON.stringify(CODE_CACHE)});`,
    "const { createRequire } = await import('node:module');",
    `startCodeCache(${JSON.stringify(dir)}, ${JSON.stringify(cache)});`,
    `const chunk = createRequire(${JSON.stringify(join(dir, 'x.cjs'))})('./chunks/work-abc123.cjs');`,
    'console.log(JSON.stringify(chunk.describe()));',
  ].join('\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return { code: r.status, seen: r.status === 0 ? JSON.parse(r.stdout) : r.stdout, stderr: r.stderr };
}

const EXPECTED = { file: 'work-abc123.cjs', dir: 'chunks', self: true, thisIsExports: true, resolved: 'other-def456.cjs', cached: true, other: 42 };
const listing = (cache: string): string[] => readdirSync(cache).sort();
const mtimes = (cache: string): number[] => listing(cache).map((f) => statSync(join(cache, f)).mtimeMs);

describe('the code cache of the CLI bundle', () => {
  it('compiles a chunk as Node would, and writes its cache at exit', () => {
    const { dir, cache } = bundle();
    expect(runChild(dir, cache)).toEqual({ code: 0, seen: EXPECTED, stderr: '' });
    expect(listing(cache)).toEqual(['other-def456.cjs', 'work-abc123.cjs']);
    for (const file of listing(cache)) expect(statSync(join(cache, file)).size).toBeGreaterThan(0);
  });

  it('reads a cache that fits instead of writing it again', () => {
    const { dir, cache } = bundle();
    runChild(dir, cache);
    const written = listing(cache).map((f) => readFileSync(join(cache, f)));
    const before = mtimes(cache);
    expect(runChild(dir, cache)).toEqual({ code: 0, seen: EXPECTED, stderr: '' });
    expect(mtimes(cache)).toEqual(before);
    expect(listing(cache).map((f) => readFileSync(join(cache, f)))).toEqual(written);
  });

  it('replaces a cache V8 rejects, and the chunk runs all the same', () => {
    const { dir, cache } = bundle();
    runChild(dir, cache);
    writeFileSync(join(cache, 'work-abc123.cjs'), 'not a code cache');
    expect(runChild(dir, cache)).toEqual({ code: 0, seen: EXPECTED, stderr: '' });
    expect(readFileSync(join(cache, 'work-abc123.cjs'), 'utf8')).not.toBe('not a code cache');
    expect(statSync(join(cache, 'work-abc123.cjs')).size).toBeGreaterThan(100);
  });

  it('removes the caches of chunks the bundle no longer has when it writes one', () => {
    const { dir, cache } = bundle();
    runChild(dir, cache);
    // A rebuild: the chunk's content, so its name, changed; the old cache goes with the first write.
    rmSync(join(dir, 'chunks', 'other-def456.cjs'));
    writeFileSync(join(dir, 'chunks', 'other-0f0f0f.cjs'), 'module.exports = { value: 42 };\n');
    writeFileSync(join(dir, 'chunks', 'work-abc123.cjs'), readFileSync(join(dir, 'chunks', 'work-abc123.cjs'), 'utf8').replaceAll('other-def456', 'other-0f0f0f'));
    rmSync(join(cache, 'work-abc123.cjs'));
    writeFileSync(join(cache, 'work-abc123.cjs.99999'), 'a cache another process is writing');
    expect(runChild(dir, cache)).toEqual({ code: 0, seen: { ...EXPECTED, resolved: 'other-0f0f0f.cjs' }, stderr: '' });
    expect(listing(cache)).toEqual(['other-0f0f0f.cjs', 'work-abc123.cjs', 'work-abc123.cjs.99999']);
  });

  it('keeps a cache per install, for the same Node', async () => {
    const { codeCacheDir } = (await import(CODE_CACHE)) as typeof import('../../cli/codeCache.js');
    const env = { NODE_COMPILE_CACHE: '/c' };
    expect(codeCacheDir('/a/dist/cli', env)).toMatch(new RegExp(`^/c/squadron-${process.version}-${process.arch}/[0-9a-f]{16}$`));
    expect(codeCacheDir('/a/dist/cli', env)).toBe(codeCacheDir('/a/dist/cli', env));
    expect(codeCacheDir('/b/dist/cli', env)).not.toBe(codeCacheDir('/a/dist/cli', env));
    expect(codeCacheDir('/a/dist/cli', { ...env, NODE_DISABLE_COMPILE_CACHE: '1' })).toBeUndefined();
  });

  it('leaves files outside the bundle to Node', () => {
    const { dir, cache } = bundle();
    const outside = join(dir, '..', 'outside.cjs');
    writeFileSync(outside, 'module.exports = 1;\n');
    const script = `const { startCodeCache } = await import(${JSON.stringify(CODE_CACHE)}); const { createRequire } = await import('node:module'); startCodeCache(${JSON.stringify(join(dir, 'chunks'))}, ${JSON.stringify(cache)}); console.log(createRequire(${JSON.stringify(outside)})(${JSON.stringify(outside)}));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect({ code: r.status, stdout: r.stdout.trim() }).toEqual({ code: 0, stdout: '1' });
    expect(listing(cache)).toEqual([]);
  });

  it('does not use a folder it cannot trust or write, and the chunk runs all the same', () => {
    const { dir, cache } = bundle();
    mkdirSync(cache);
    // As root, a folder of another user (its cache would be code someone else wrote); otherwise, one this user cannot write.
    if (IS_ROOT) chownSync(cache, 65534, 65534);
    else chmodSync(cache, 0o555);
    expect(runChild(dir, cache)).toEqual({ code: 0, seen: EXPECTED, stderr: '' });
    expect(listing(cache)).toEqual([]);
  });
});
