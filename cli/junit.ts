// `squadron test --junit FILE`: the results as JUnit XML, the report format CI systems read (one
// testsuite per test file, one testcase per run block, a <failure> per failed test).

import type { TestReport, TestResult } from '../api/index.js';

export function junitXml(report: TestReport, shown: (path: string) => string): string {
  const all = report.files.flatMap((f) => f.tests);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  lines.push(`<testsuites name="squadron test" tests="${all.length}" failures="${report.failed}" errors="${report.errors}" time="${seconds(all)}">`);
  for (const file of report.files) {
    const name = shown(file.path);
    const count = (s: string): number => file.tests.filter((t) => t.status === s).length;
    lines.push(`  <testsuite name="${attr(name)}" tests="${file.tests.length}" failures="${count('failed')}" errors="${count('error')}" time="${seconds(file.tests)}">`);
    for (const t of file.tests) {
      const open = `    <testcase name="${attr(t.name)}" classname="${attr(name)}" file="${attr(name)}" line="${t.line}" time="${(t.durationMs / 1000).toFixed(3)}"`;
      if (t.status === 'passed') {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      const tag = t.status === 'error' ? 'error' : 'failure';
      const first = t.failures[0]?.message ?? t.status;
      const body = t.failures.map((f) => `${shown(f.file)}:${f.line}:${f.column}: ${f.message}`).join('\n');
      lines.push(`      <${tag} message="${attr(first)}" type="${tag === 'error' ? 'error' : 'assertion'}">${text(body)}</${tag}>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function seconds(tests: readonly TestResult[]): string {
  return (tests.reduce((s, t) => s + t.durationMs, 0) / 1000).toFixed(3);
}

/** XML 1.0 text: the five escapes, and characters XML cannot hold at all dropped. */
function text(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
