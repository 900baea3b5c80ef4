// Where `squadron test` finds its tests: the `*.sqtest.hcl` files beside the config (in its folder)
// and below its `tests/` folder, sorted by path; or the one test file it was given.

import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { TEST_FILE_SUFFIX } from './files.js';

export interface TestDiscovery {
  /** The config the tests run against (a folder). */
  configPath: string;
  testFiles: string[];
}

export function discoverTests(path: string): TestDiscovery {
  const full = resolve(path);
  let isFile = false;
  try {
    isFile = statSync(full).isFile();
  } catch {
    return { configPath: full, testFiles: [] };
  }
  if (isFile) {
    if (!full.endsWith(TEST_FILE_SUFFIX)) return { configPath: full, testFiles: testsBeside(dirname(full)) };
    const dir = dirname(full);
    return { configPath: basename(dir) === 'tests' ? dirname(dir) : dir, testFiles: [full] };
  }
  return { configPath: full, testFiles: testsBeside(full) };
}

function testsBeside(dir: string): string[] {
  const out = listTests(dir, false);
  out.push(...listTests(join(dir, 'tests'), true));
  return out.sort();
}

function listTests(dir: string, deep: boolean): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isFile() && e.name.endsWith(TEST_FILE_SUFFIX)) out.push(path);
    else if (deep && e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') out.push(...listTests(path, true));
  }
  return out;
}
