// Diagnostic rendering (text with source excerpt, caret and hint; JSON with relative paths) and
// the code registry: every code the config layer can emit is registered and documented.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CODE_TABLE } from '../../config/hcl/index.js';
import { countSummary, DIAGNOSTIC_CODES, diagnosticToJson, renderDiagnostic, renderDiagnostics } from '../../config/diagnostics.js';
import type { Diagnostic } from '../../config/hcl/diagnostic.js';
import { loadHcl, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

const root = join(import.meta.dirname, '..', '..');

describe('text rendering', () => {
  const src = `toolset "web" {\n\ttools = ["builtins.http.get"]\n}\n`;

  test('header, source line, caret under the range, hint; path relative to the cwd', () => {
    const r = loadHcl(src);
    const text = renderDiagnostic(r.diagnostics[0]!, { cwd: r.dir, color: false });
    expect(text).toBe(
      [
        'main.hcl:2:11: error[REF004]: "builtins.http.get" is a string, not a reference',
        '  2 | \ttools = ["builtins.http.get"]',
        '    | \t         ^^^^^^^^^^^^^^^^^^^',
        '  = hint: write builtins.http.get without quotes',
      ].join('\n'),
    );
  });

  test('warnings say warning[CODE]; colour only when asked', () => {
    const w: Diagnostic = { severity: 'warning', code: 'GRA009', message: 'm', file: '/x/a.hcl', line: 0, column: 0, endLine: 0, endColumn: 0 };
    expect(renderDiagnostic(w, { cwd: '/x', color: false })).toBe('a.hcl: warning[GRA009]: m');
    expect(renderDiagnostic(w, { cwd: '/x', color: true })).toContain('\u001b[');
  });

  test('a range spanning lines underlines to the end of the first line', () => {
    const d: Diagnostic = { severity: 'error', code: 'SCH003', message: 'm', file: '/p/f.hcl', line: 1, column: 3, endLine: 3, endColumn: 2 };
    const text = renderDiagnostics([d], { cwd: '/p', color: false, readSource: () => 'a bcd\nx\n}' });
    expect(text.split('\n')[2]).toBe('    |   ^^^');
  });

  test('counts', () => {
    const d = (severity: 'error' | 'warning'): Diagnostic => ({ severity, code: 'X', message: '', file: '', line: 0, column: 0, endLine: 0, endColumn: 0 });
    expect(countSummary([d('error'), d('error'), d('warning')])).toBe('2 errors, 1 warning');
  });

  test('JSON keeps every field and makes the path relative', () => {
    const r = loadHcl(src);
    expect(diagnosticToJson(r.diagnostics[0]!, r.dir)).toEqual({ ...r.diagnostics[0], file: 'main.hcl' });
  });
});

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('the code registry', () => {
  const used = new Set<string>();
  for (const file of sources(join(root, 'config'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/['"`]((?:SCH|REF|GRA|FIL|MCP|MOD)\d{3})['"`]/g)) used.add(m[1]!);
  }

  test('every SCH/REF/GRA/FIL/MCP/MOD code used in config/ is registered', () => {
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((c) => !(c in DIAGNOSTIC_CODES))).toEqual([]);
  });

  test('every registered code is used somewhere', () => {
    expect(Object.keys(DIAGNOSTIC_CODES).filter((c) => !used.has(c))).toEqual([]);
  });

  test('docs/diagnostics.md documents every code, including the parser and skill-folder codes', () => {
    const doc = readFileSync(join(root, 'docs', 'diagnostics.md'), 'utf8');
    const skl = [...readFileSync(join(root, 'config', 'skillFolders.ts'), 'utf8').matchAll(/\b(SKL\d{3})\b/g)].map((m) => m[1]!);
    const all = [...Object.keys(DIAGNOSTIC_CODES), ...Object.keys(CODE_TABLE), ...skl];
    expect(all.filter((c) => !doc.includes(`\`${c}\``))).toEqual([]);
  });
});
