// Test support for config tests: write small HCL projects to a temp folder, load them, and read
// diagnostics as compact `CODE@line:col` strings so assertions state the exact code and position.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig, type LoadOptions, type LoadResult } from '../../config/load.js';
import type { Diagnostic } from '../../config/hcl/diagnostic.js';

const made: string[] = [];

export function tempProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-config-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

export function removeTempProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Loaded extends LoadResult {
  dir: string;
}

/** Loads a project made of the given files (default env: empty, so host variables never leak in). */
export function loadFiles(files: Record<string, string>, opts: LoadOptions = {}): Loaded {
  const dir = tempProject(files);
  return { dir, ...loadConfig(dir, { env: {}, ...opts }) };
}

/** Loads one file, `main.hcl`. */
export function loadHcl(source: string, opts: LoadOptions = {}): Loaded {
  return loadFiles({ 'main.hcl': source }, opts);
}

/** `CODE@line:col` for each diagnostic (warnings prefixed `w:`), in the loader's order. */
export function codes(result: { diagnostics: readonly Diagnostic[] }): string[] {
  return result.diagnostics.map((d) => `${d.severity === 'warning' ? 'w:' : ''}${d.code}@${d.line}:${d.column}`);
}

export function only(result: { diagnostics: readonly Diagnostic[] }, code: string): Diagnostic {
  const found = result.diagnostics.filter((d) => d.code === code);
  if (found.length !== 1) throw new Error(`expected one ${code}, got: ${JSON.stringify(result.diagnostics, null, 2)}`);
  return found[0]!;
}

/** A model block every test can reference as models.claude.<key>. */
export const MODEL = `model "claude" {
  provider = "anthropic"
  api_key  = "test-key"
}
`;

/** MODEL plus a minimal valid mission whose single task has a worker. */
export function withMission(body: string): string {
  return `${MODEL}
mission "m" {
  commander {
    model = models.claude.claude_sonnet_5_5
  }
${body}
}
`;
}

/** `line:col` (1-based) of the n-th occurrence (0-based) of `needle` in `source`. */
export function at(source: string, needle: string, nth = 0): string {
  let index = -1;
  for (let i = 0; i <= nth; i++) {
    index = source.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`"${needle}" (occurrence ${nth}) not found in source`);
  }
  const before = source.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return `${line}:${column}`;
}
