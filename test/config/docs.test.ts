// The documentation stays true: every ```hcl example in docs/ loads without errors (```hcl partial
// fragments must at least parse), and there is a page for every block, command and concept.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseHcl } from '../../config/hcl/index.js';
import { loadHcl, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

const docsRoot = join(import.meta.dirname, '..', '..', 'docs');

function pages(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) pages(path, out);
    else if (name.endsWith('.md')) out.push(path);
  }
  return out;
}

interface Snippet {
  page: string;
  line: number;
  partial: boolean;
  text: string;
}

function snippets(): Snippet[] {
  const out: Snippet[] = [];
  // The README's example is documentation too.
  for (const path of [...pages(docsRoot), join(docsRoot, '..', 'README.md')]) {
    const lines = readFileSync(path, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^```hcl(\s+partial)?\s*$/.exec(lines[i]!);
      if (!open) continue;
      const end = lines.indexOf('```', i + 1);
      out.push({ page: relative(docsRoot, path), line: i + 1, partial: open[1] !== undefined, text: lines.slice(i + 1, end).join('\n') + '\n' });
      i = end;
    }
  }
  return out;
}

/** Secrets the examples declare; supplied the way a user would, through the environment. */
const env = { SQUADRON_VAR_anthropic_api_key: 'test', SQUADRON_VAR_openai_api_key: 'test', SQUADRON_VAR_gemini_api_key: 'test', SQUADRON_VAR_api_token: 'test', SQUADRON_VAR_webhook_secret: 'whsec-test-0123456789', SQUADRON_VAR_notify_secret: 'notify-test-0123456789' };

describe('hcl examples in docs/', () => {
  const all = snippets();
  test('there are full and partial examples', () => {
    expect(all.filter((s) => !s.partial).length).toBeGreaterThanOrEqual(8);
    expect(all.filter((s) => s.partial).length).toBeGreaterThanOrEqual(3);
  });
  for (const s of all) {
    test(`${s.page}:${s.line} ${s.partial ? 'parses' : 'loads without errors'}`, () => {
      if (s.partial) {
        expect(parseHcl(s.text, s.page).diagnostics).toEqual([]);
        return;
      }
      const r = loadHcl(s.text, { env });
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    });
  }
});

test('the README example is among the checked snippets', () => {
  expect(snippets().some((s) => s.page === '../README.md' && !s.partial)).toBe(true);
});

test('one page per block, command and concept', () => {
  const have = pages(docsRoot).map((p) => relative(docsRoot, p));
  const want = [
    ...['variable', 'model', 'tool', 'mcp', 'plugin', 'toolset', 'skill', 'agent', 'mission', 'task'].map((b) => `blocks/${b}.md`),
    ...['init', 'validate', 'fmt', 'docs', 'run', 'resume', 'chat', 'runs', 'inspect', 'plan', 'tools', 'graph', 'mcp', 'test', 'vars'].map((c) => `commands/${c}.md`),
    ...['missions', 'worker', 'toolsets', 'references', 'cli', 'context', 'telemetry', 'testing'].map((c) => `concepts/${c}.md`),
    'diagnostics.md',
  ];
  expect(want.filter((w) => !have.includes(w))).toEqual([]);
});

test('user docs stand on their own: no page or example refers to a Go version of Squadron', () => {
  const examples = join(docsRoot, '..', 'examples');
  const hcl = readdirSync(examples, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.hcl') || f.endsWith('.md'));
  // The migration page exists to speak of it.
  const files = [...pages(docsRoot).filter((p) => !p.endsWith('migrate-from-go.md')), join(docsRoot, '..', 'README.md'), ...hcl.map((f) => join(examples, f))];
  const hits = files.filter((f) => /\bGo (original|version|Squadron)\b|\bthe Go\b|golang/i.test(readFileSync(f, 'utf8')));
  expect(hits.map((f) => relative(join(docsRoot, '..'), f))).toEqual([]);
});
