// Diagnostic rendering (text with source excerpt, caret and hint; JSON with relative paths) and
// the code registry: every code the config layer can emit is registered and documented.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CODE_TABLE } from '../../config/hcl/index.js';
import { countSummary, describeCode, DIAGNOSTIC_CODES, diagnosticToJson, renderDiagnostic, renderDiagnostics, sourceReaderFor } from '../../config/diagnostics.js';
import { SKILL_CODES } from '../../config/skillCodes.js';
import type { Diagnostic } from '../../config/hcl/diagnostic.js';
import { loadHcl, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

const root = join(import.meta.dirname, '..', '..');

describe('text rendering', () => {
  const src = `toolset "web" {\n\ttools = ["builtins.http.get"]\n}\n`;

  test('header, source line, caret under the range, hint; path relative to the cwd', () => {
    const r = loadHcl(src);
    const text = renderDiagnostic(r.diagnostics.find((d) => d.code === 'REF004')!, { cwd: r.dir, color: false });
    expect(text).toBe(
      [
        'main.hcl:2:11: warning[REF004]: "builtins.http.get" is a string, not a reference: read as builtins.http.get',
        '  2 | \ttools = ["builtins.http.get"]',
        '    | \t         ^^^^^^^^^^^^^^^^^^^',
        '  = hint: write builtins.http.get without quotes (squadron fmt does it)',
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
    for (const m of readFileSync(file, 'utf8').matchAll(/['"`]((?:SCH|REF|GRA|ITR|FIL|MCP|MOD|TEL|TST|GO|PLG|VLT)\d{3})['"`]/g)) used.add(m[1]!);
  }

  test('every SCH/REF/GRA/ITR/FIL/MCP/MOD/TST code used in config/ is registered', () => {
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((c) => !(c in DIAGNOSTIC_CODES))).toEqual([]);
  });

  test('every registered code is used somewhere', () => {
    expect(Object.keys(DIAGNOSTIC_CODES).filter((c) => !used.has(c))).toEqual([]);
  });

  test('every SKL code used in config/ is in SKILL_CODES, and every one there is used', () => {
    const skl = new Set<string>();
    for (const file of sources(join(root, 'config'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`](SKL\d{3})['"`]/g)) skl.add(m[1]!);
    }
    expect(skl.size).toBeGreaterThan(15);
    expect([...skl].filter((c) => !(c in SKILL_CODES))).toEqual([]);
    expect(Object.keys(SKILL_CODES).filter((c) => !skl.has(c))).toEqual([]);
  });

  test('describeCode knows the codes of the loader, the parser and the skill folders', () => {
    expect(describeCode('SCH008')).toBe(DIAGNOSTIC_CODES['SCH008']);
    expect(describeCode('SYN030')).toBe(CODE_TABLE.SYN030);
    expect(describeCode('SKL003')).toBe(SKILL_CODES['SKL003']!.meaning);
    expect(describeCode('XYZ999')).toBeUndefined();
  });

  test('docs/diagnostics.md has one row per code, worded as its registry says', () => {
    const doc = readFileSync(join(root, 'docs', 'diagnostics.md'), 'utf8');
    const rows = new Map<string, string>();
    for (const m of doc.matchAll(/^\| `(\w+)` \| (.*) \|$/gm)) rows.set(m[1]!, m[2]!);
    const cell = (t: string): string => t.replace(/\|/g, '\\|');
    const want = new Map<string, string>([
      ...Object.entries({ ...DIAGNOSTIC_CODES, ...CODE_TABLE }).map(([c, t]): [string, string] => [c, cell(t)]),
      ...Object.entries(SKILL_CODES).map(([c, v]): [string, string] => [c, `${v.severity} | ${cell(v.meaning)}`]),
    ]);
    expect([...want].filter(([c, row]) => rows.get(c) !== row).map(([c]) => c)).toEqual([]);
    expect([...rows.keys()].filter((c) => !want.has(c))).toEqual([]);
  });
});

describe('rendering from the text the loader read', () => {
  test('LoadResult.sources holds every parsed file, and the excerpt comes from it, not the disk', () => {
    const r = loadHcl(`toolset "web" {\n\ttools = ["builtins.http.get"]\n}\n`);
    const file = join(r.dir, 'main.hcl');
    expect([...(r.sources ?? new Map()).keys()]).toEqual([file]);
    rmSync(file);
    const text = renderDiagnostics(r.diagnostics, { cwd: r.dir, color: false, readSource: sourceReaderFor(r.sources) });
    expect(text).toContain('  2 | \ttools = ["builtins.http.get"]');
  });

  test('the disk fallback reads no FIFO (it would block) and no binary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'squadron-render-'));
    try {
      const fifo = join(dir, 'SKILL.md');
      spawnSync('mkfifo', [fifo]);
      writeFileSync(join(dir, 'bin.md'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
      const read = sourceReaderFor();
      expect([read(fifo), read(join(dir, 'bin.md'))]).toEqual([undefined, undefined]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
