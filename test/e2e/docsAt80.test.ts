// `squadron docs` at 80 columns, as a new user reads it: every HCL example is printed whole (code is
// never wrapped), so the example pasted from the terminal is valid — each full one is pasted into
// `squadron validate`; and no table cuts a word (`claude_sonnet…`): a table too narrow for its words
// is reflowed as a list.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';

const DOCS = join(REPO_ROOT, 'docs');
const AT_80 = { env: { COLUMNS: '80' } };
/** Secrets the examples declare, supplied as a user would. */
const SECRETS = { SQUADRON_VAR_anthropic_api_key: 'test', SQUADRON_VAR_openai_api_key: 'test', SQUADRON_VAR_api_token: 'test' };

function pages(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) pages(path, out);
    else if (name.endsWith('.md')) out.push(path);
  }
  return out;
}

/** `blocks/model` for docs/blocks/model.md. */
const topicOf = (path: string): string => relative(DOCS, path).replace(/\.md$/, '');

interface Example {
  partial: boolean;
  lines: string[];
}

function hclExamples(markdown: string): Example[] {
  const lines = markdown.split('\n');
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```hcl(\s+partial)?\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    out.push({ partial: open[1] !== undefined, lines: lines.slice(i + 1, end) });
    i = end;
  }
  return out;
}

/** The example as the terminal shows it, dedented: found whole and in order among the page's lines. */
function pasted(shown: readonly string[], example: Example): string | undefined {
  const expected = example.lines.map((l) => (l.trim() === '' ? '' : `    ${l}`.trimEnd()));
  for (let i = 0; i + expected.length <= shown.length; i++) {
    if (expected.every((line, k) => shown[i + k] === line)) return `${shown.slice(i, i + expected.length).map((l) => l.slice(4)).join('\n')}\n`;
  }
  return undefined;
}

describe('squadron docs at 80 columns', () => {
  const all = pages(DOCS);
  // Each page is rendered once for both tests.
  const rendered = new Map<string, Promise<string>>();
  const page = (topic: string): Promise<string> => {
    if (!rendered.has(topic)) rendered.set(topic, runCli(['docs', topic], AT_80).then((r) => r.stdout));
    return rendered.get(topic)!;
  };

  it('prints every HCL example whole, and each full one pasted from the terminal validates', { timeout: 600_000 }, async () => {
    let full = 0;
    for (const path of all) {
      const examples = hclExamples(readFileSync(path, 'utf8'));
      if (examples.length === 0) continue;
      const topic = topicOf(path);
      const shown = (await page(topic)).split('\n');
      for (const example of examples) {
        const text = pasted(shown, example);
        expect(text, `${topic}: an example is not printed whole at 80 columns:\n${example.lines.join('\n')}`).toBeDefined();
        if (example.partial) continue;
        const dir = tempDir('squadron-docs-example-');
        writeFileSync(join(dir, 'main.hcl'), text!);
        const result = await runCli(['validate', dir, '--offline'], { cwd: dir, env: SECRETS });
        expect(result.code, `${topic}: the pasted example does not validate:\n${result.stderr}\n${text}`).toBe(0);
        full++;
      }
    }
    expect(full).toBeGreaterThanOrEqual(8);
  });

  it('cuts no word of a table: every code span of a table row is shown whole', { timeout: 600_000 }, async () => {
    let spans = 0;
    for (const path of all) {
      const rows = readFileSync(path, 'utf8').split('\n').filter((l) => /^\|.*\|\s*$/.test(l) && !/^\|[-| :]+\|$/.test(l));
      const words = rows.flatMap((row) => [...row.matchAll(/`([^`\s|]+)`/g)].map((m) => m[1]!));
      if (words.length === 0) continue;
      const shown = await page(topicOf(path));
      for (const word of new Set(words)) {
        expect(shown.includes(word), `${topicOf(path)}: "${word}" is not shown whole at 80 columns`).toBe(true);
        spans++;
      }
      expect(shown.split('\n').every((l) => [...l].length <= 80 || l.startsWith('    '))).toBe(true);
    }
    expect(spans).toBeGreaterThan(100);
  });
});
