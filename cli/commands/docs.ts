// `squadron docs [topic]`: prints a page of the documentation shipped in docs/ (one per block,
// command and concept). Without a topic it lists them with their one-line descriptions; an
// unknown topic is a usage error (exit 2) with suggestions.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Command } from 'commander';
import { assetPath } from '../../config/assets.js';
import { closest } from '../../config/suggest.js';
import { CliError, useColor, type CliIo } from '../io.js';

export interface DocTopic {
  /** What the user types: the file name without `.md` (`task`, `validate`, `worker`). */
  name: string;
  /** `blocks`, `commands`, `concepts` or `` for top-level pages. */
  group: string;
  path: string;
}

const GROUP_TITLES: Readonly<Record<string, string>> = {
  blocks: 'Blocks',
  commands: 'Commands',
  concepts: 'Concepts',
  '': 'Reference',
};
const GROUP_ORDER = ['concepts', 'blocks', 'commands', ''];

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile() && entry.name.endsWith('.md')) out.push(path);
  }
}

/** The first paragraph after the `# Title` line, on one line. */
export function pageSummary(markdown: string): string {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => l.startsWith('# '));
  const para: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') {
      if (para.length > 0) break;
      continue;
    }
    if (line.startsWith('#') || line.startsWith('```')) break;
    para.push(line.trim());
  }
  return para.join(' ');
}

export function listTopics(root: string = assetPath('docs')): DocTopic[] {
  const files: string[] = [];
  walk(root, files);
  const topics = files.map((path) => {
    const rel = relative(root, path).split(sep);
    const file = rel[rel.length - 1]!;
    return { name: file.slice(0, -3), group: rel.length > 1 ? rel[0]! : '', path };
  });
  return topics.sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group) || a.name.localeCompare(b.name));
}

/** `task`, or `blocks/task` when a name exists in several groups. */
export function findTopic(topics: readonly DocTopic[], query: string): DocTopic | undefined {
  const q = query.replace(/\.md$/, '').toLowerCase();
  return topics.find((t) => `${t.group}/${t.name}` === q) ?? topics.find((t) => t.name === q);
}

const ansi = { bold: '\u001b[1m', dim: '\u001b[2m', cyan: '\u001b[36m', underline: '\u001b[4m', reset: '\u001b[0m' };

/** Light terminal formatting: bold headings, indented dim code blocks, bold inline code. */
export function formatMarkdown(markdown: string, color: boolean): string {
  if (!color) return markdown;
  const out: string[] = [];
  let inCode = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (line.startsWith('```')) {
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      out.push(`    ${ansi.dim}${line}${ansi.reset}`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const text = heading[2]!;
      out.push(heading[1]!.length === 1 ? `${ansi.bold}${ansi.underline}${text}${ansi.reset}` : `${ansi.bold}${text}${ansi.reset}`);
      continue;
    }
    out.push(line.replace(/`([^`]+)`/g, `${ansi.cyan}$1${ansi.reset}`).replace(/\*\*([^*]+)\*\*/g, `${ansi.bold}$1${ansi.reset}`));
  }
  return out.join('\n');
}

/** The topics with their one-line summaries (each page is read only here, for the index). */
function renderIndex(topics: readonly DocTopic[], groups: readonly string[] = GROUP_ORDER): string {
  const width = Math.max(...topics.map((t) => t.name.length));
  const lines: string[] = ['Documentation topics (squadron docs <topic>):'];
  for (const group of groups) {
    const inGroup = topics.filter((t) => t.group === group);
    if (inGroup.length === 0) continue;
    lines.push('', `${GROUP_TITLES[group] ?? group}:`);
    for (const t of inGroup) lines.push(`  ${t.name.padEnd(width)}  ${pageSummary(readFileSync(t.path, 'utf8'))}`);
  }
  return lines.join('\n');
}

export function register(program: Command, io: CliIo): void {
  program
    .command('docs')
    .description('Print a documentation page (without a topic: list the topics)')
    .argument('[topic]', 'a block, command or concept, e.g. task, validate, worker')
    .action((topic: string | undefined) => {
      const topics = listTopics();
      const query = topic?.trim().replace(/\/$/, '') ?? '';
      if (query === '') {
        io.stdout.write(`${renderIndex(topics)}\n`);
        return;
      }
      if (GROUP_ORDER.includes(query)) {
        io.stdout.write(`${renderIndex(topics, [query])}\n`); // a group name lists that group
        return;
      }
      const found = findTopic(topics, query);
      if (found === undefined) {
        const names = topics.map((t) => t.name);
        const near = closest(query, names);
        // Substring suggestions only for a query long enough to mean something.
        const also = query.length < 3 ? [] : names.filter((n) => n !== near && (n.includes(query) || query.includes(n))).slice(0, 3);
        const suggestions = [...(near === undefined ? [] : [near]), ...also];
        const hint = suggestions.length > 0 ? `did you mean ${suggestions.join(', ')}? ` : '';
        throw new CliError(`unknown docs topic "${topic}". ${hint}Run squadron docs to list the topics.`, 'not_found');
      }
      const color = useColor(io, 'stdout');
      io.stdout.write(`${formatMarkdown(readFileSync(found.path, 'utf8'), color).trimEnd()}\n`);
    });
}
