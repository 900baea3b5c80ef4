// `squadron docs` as a user reads it: piped output is plain text wrapped to a width (COLUMNS, else
// 80) with aligned tables and no Markdown fence lines; colour with FORCE_COLOR or on a terminal; the
// pager only on a terminal, for a page taller than it, and never with --no-pager. The terminal is a
// real pseudo-terminal made by script(1).

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../config/builtinTools.js';
import { CLI, REPO_ROOT, runCli } from '../support/cli.js';

const ESC = '\u001b';
const widthOf = (line: string): number => [...line].length;
const longest = (text: string): number => Math.max(...text.split('\n').map(widthOf));

/** The code lines of a page's Markdown (inside fences), trimmed: printed whole, never wrapped. */
function codeLines(topic: string): Set<string> {
  const file = [join(REPO_ROOT, 'docs', `${topic}.md`), ...['blocks', 'commands', 'concepts'].map((g) => join(REPO_ROOT, 'docs', g, `${topic}.md`))].find((f) => existsSync(f))!;
  const out = new Set<string>();
  let inside = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) inside = !inside;
    else if (inside) out.add(line.trim());
  }
  return out;
}

/** The widest line that is not a line of code (code is printed whole, whatever the width). */
const longestProse = (text: string, topic: string): number => {
  const code = codeLines(topic);
  return Math.max(...text.split('\n').filter((l) => !code.has(l.replace(/\u001b\[[0-9;]*m/g, '').trim())).map((l) => widthOf(l.replace(/\u001b\[[0-9;]*m/g, ''))));
};
// Several CLI starts per test on a busy machine: room well beyond what they need.
const SLOW = { timeout: 180_000 };

/** Runs `squadron <args>` on a pseudo-terminal of `cols`×`rows`; resolves with what the terminal showed. */
function onTerminal(args: readonly string[], env: Record<string, string>, cols = 70, rows = 20): Promise<string> {
  const command = `stty cols ${cols} rows ${rows}; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} ${args.join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm-256color', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`squadron ${args.join(' ')} on a terminal timed out:\n${out}`));
    }, 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out.replace(/\r\n/g, '\n'));
    });
  });
}

describe('squadron docs, piped', () => {
  it('wraps every page line to COLUMNS and shows code without its fence or info string', SLOW, async () => {
    for (const topic of ['task', 'toolsets', 'diagnostics', 'run', 'validate']) {
      const r = await runCli(['docs', topic], { env: { COLUMNS: '60' } });
      expect(r.code, r.stderr).toBe(0);
      expect(longestProse(r.stdout, topic), `${topic}: a line is wider than 60`).toBeLessThanOrEqual(60);
      expect(r.stdout).not.toContain('```');
      expect(r.stdout).not.toContain(ESC);
    }
    // The task page holds an `hcl partial` fragment: its code shows, its fence line does not.
    const task = await runCli(['docs', 'task'], { env: { COLUMNS: '60' } });
    expect(task.stdout).toContain('    task "triage" {');
    expect(task.stdout).not.toMatch(/hcl partial/);
  });

  it('uses 80 columns when COLUMNS is not set', SLOW, async () => {
    const r = await runCli(['docs', 'diagnostics'], { env: { COLUMNS: undefined } });
    expect(r.code).toBe(0);
    expect(longestProse(r.stdout, 'diagnostics')).toBeLessThanOrEqual(80);
    // The table uses the room it has (its raw source lines are wider than 80).
    expect(longest(r.stdout)).toBeGreaterThan(70);
  });

  it('draws tables aligned: every row as wide as the table, column borders at the same places', SLOW, async () => {
    const r = await runCli(['docs', 'task'], { env: { COLUMNS: '72' } });
    // Each table: its consecutive lines (the page has more than one).
    const tables: string[][] = [];
    let previous = false;
    for (const line of r.stdout.split('\n')) {
      const inTable = /^[┌│├└]/.test(line);
      if (inTable && !previous) tables.push([]);
      if (inTable) tables.at(-1)!.push(line);
      previous = inTable;
    }
    expect(tables[0]!.length).toBeGreaterThan(10);
    const borders = (line: string): number[] => [...line].flatMap((c, i) => ('┌┬┐│├┼┤└┴┘'.includes(c) ? [i] : []));
    expect(borders(tables[0]![0]!).length).toBe(3); // two columns
    for (const table of tables) {
      const first = borders(table[0]!);
      for (const line of table) {
        expect(widthOf(line)).toBe(widthOf(table[0]!));
        expect(borders(line)).toEqual(first);
      }
    }
    // A cell too long for its column wraps onto the next row line instead of widening the table.
    expect(r.stdout).toMatch(/│ objective +│ required; a template over/);
    expect(r.stdout).not.toMatch(/^\|/m);
  });

  it('wraps the topic list with the summaries under each other', SLOW, async () => {
    const r = await runCli(['docs'], { env: { COLUMNS: '50' } });
    expect(r.code).toBe(0);
    expect(longest(r.stdout)).toBeLessThanOrEqual(50);
    expect(r.stdout).toMatch(/\n {2}worker +The worker is the dynamic/);
  });

  it('colours with FORCE_COLOR, and NO_COLOR wins over it', SLOW, async () => {
    const forced = await runCli(['docs', 'toolsets'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1', COLUMNS: '60' } });
    expect(forced.stdout).toContain(`${ESC}[`);
    expect(forced.stdout.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map(widthOf).every((w) => w <= 60)).toBe(true);
    const both = await runCli(['docs', 'toolsets'], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(both.stdout).not.toContain(ESC);
  });

  it('never starts the pager when piped', SLOW, async () => {
    const r = await runCli(['docs', 'task'], { env: { PAGER: 'sed s/^/PAGED:/' } });
    expect(r.stdout).not.toContain('PAGED:');
    expect(r.stdout).toMatch(/^# task\n/);
  });
});

describe('squadron docs on a terminal', () => {
  it('colours the page, fits it to the terminal and shows a long page through $PAGER', SLOW, async () => {
    const out = await onTerminal(['docs', 'task'], { PAGER: 'sed s/^/PAGED:/' }, 70, 20);
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.every((l) => l.startsWith('PAGED:'))).toBe(true);
    expect(out).toContain(`${ESC}[`);
    expect(longestProse(lines.map((l) => l.slice('PAGED:'.length)).join('\n'), 'task')).toBeLessThanOrEqual(70);
  });

  it('prints directly with --no-pager, for a page that fits, and with NO_COLOR prints plain', SLOW, async () => {
    const direct = await onTerminal(['docs', 'task', '--no-pager'], { PAGER: 'sed s/^/PAGED:/' });
    expect(direct).not.toContain('PAGED:');
    expect(direct).toContain(`${ESC}[`);
    const short = await onTerminal(['docs', 'blocks'], { PAGER: 'sed s/^/PAGED:/' }, 120, 60);
    expect(short).not.toContain('PAGED:');
    expect(short).toContain('Blocks:');
    // A pager that does not exist is no reason to show nothing.
    const missing = await onTerminal(['docs', 'task'], { PAGER: 'no-such-pager-here' });
    expect(missing).toContain('# task');
    expect(missing).toContain('"triage"');
    const plain = await onTerminal(['docs', 'task', '--no-pager'], { NO_COLOR: '1' });
    expect(plain).not.toContain(ESC);
    expect(plain).toMatch(/^# task\n/);
  });
});

describe('squadron docs builtins', () => {
  it('lists every built-in tool of the catalog with each input, its requiredness and description', SLOW, async () => {
    // Wide enough that no table cell wraps: one row per input.
    const r = await runCli(['docs', 'builtins'], { env: { COLUMNS: '400' } });
    expect(r.code, r.stderr).toBe(0);
    for (const tool of BUILTIN_TOOLS) {
      expect(r.stdout).toContain(`### ${tool.ref}\n\n${tool.description}`);
      const properties = (tool.inputSchema['properties'] ?? {}) as Record<string, { description?: string }>;
      const required = (tool.inputSchema['required'] ?? []) as string[];
      for (const [name, schema] of Object.entries(properties)) {
        const row = new RegExp(`│ ${name} +│ [^│]+ │ ${required.includes(name) ? 'yes' : 'no '} +│ ${escape(schema.description ?? '')} +│`);
        expect(r.stdout, `${tool.ref} input ${name}`).toMatch(row);
      }
    }
    expect(r.stdout).toMatch(/│ seconds +│ number, > 0, ≤ 60 +│ yes/);
    expect(r.stdout).toContain('builtins.files.all expands to: builtins.files.read, builtins.files.write, builtins.files.list.');
    expect(r.stdout).toContain('(squadron docs workspace)');
  });

  it('is listed among the topics with the other reference pages', SLOW, async () => {
    const r = await runCli(['docs'], { env: { COLUMNS: '200' } });
    expect(r.stdout).toMatch(/Reference:\n {2}builtins +The built-in tools \(builtins\.\*\)/);
  });
});

describe('searching the docs', () => {
  it('an unknown topic names the pages that mention it: docs postgres points to scale-out', SLOW, async () => {
    const r = await runCli(['docs', 'postgres']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown docs topic "postgres"\. Pages that mention it: scale-out, /);
    const json = await runCli(['docs', 'postgres', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ error_code: 'not_found', mentioned_in: expect.arrayContaining(['scale-out', 'persistence']) });
  });

  it('--search lists the pages whose text or headings hold every word, best first, fitted to the width', SLOW, async () => {
    const r = await runCli(['docs', '--search', 'stale lease'], { env: { COLUMNS: '80' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Pages that mention "stale lease" (squadron docs <topic>):');
    expect(lines.slice(1).map((l) => /^ {2}(\S+)/.exec(l)?.[1]).filter(Boolean)).toEqual(expect.arrayContaining(['scale-out', 'persistence']));
    expect(longest(r.stdout)).toBeLessThanOrEqual(80);
    const json = JSON.parse((await runCli(['docs', '--search', 'stale lease', '--json'])).stdout) as { matches: { topic: string; line: string }[] };
    expect(json.matches.every((m) => /stale|lease/i.test(m.line))).toBe(true);
    const none = await runCli(['docs', '--search', 'xylophone']);
    expect([none.code, none.stdout]).toEqual([0, 'no docs page mentions "xylophone"; run squadron docs to list the topics\n']);
  });

  it('--json prints the topic list, or one page as its Markdown', SLOW, async () => {
    const list = JSON.parse((await runCli(['docs', '--json'])).stdout) as { topics: { name: string; group: string; summary: string }[] };
    expect(list.topics.find((t) => t.name === 'scale-out')).toMatchObject({ group: 'concepts' });
    const page = JSON.parse((await runCli(['docs', 'fmt', '--json'])).stdout) as { topic: string; markdown: string };
    expect(page.topic).toBe('fmt');
    expect(page.markdown.startsWith('# fmt\n')).toBe(true);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
