// The documentation pages (`squadron docs`, and any surface that serves them): one per block, command
// and concept, shipped in docs/, plus the pages written from the code when asked for (`builtins`).
// Markdown as written; rendering it for a terminal is the CLI's.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { assetPath } from '../core/assets.js';

export interface DocTopic {
  /** What the user types: the file name without `.md` (`task`, `validate`, `worker`). */
  name: string;
  /** `blocks`, `commands`, `concepts` or `` for top-level pages. */
  group: string;
  /** The page's Markdown: a file of docs/, or generated (`builtins`, from the runtime's tool definitions). */
  read: () => Promise<string>;
  /** The one-line description in the topic list, when reading the page would cost more than a file read. */
  summary?: string;
}

/** Pages written from the code when asked for, so they cannot drift from it. */
const GENERATED: readonly DocTopic[] = [
  // Listing the topics must not load the runtime's tool definitions: the summary is written here.
  { name: 'builtins', group: '', read: async () => (await import('./builtinsPage.js')).builtinsPage(), summary: 'The built-in tools (builtins.*), each with its description and inputs.' },
];

/** The groups in the order the index lists them. */
export const GROUP_ORDER: readonly string[] = ['concepts', 'blocks', 'commands', ''];

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
    return { name: file.slice(0, -3), group: rel.length > 1 ? rel[0]! : '', read: async () => readFileSync(path, 'utf8') };
  });
  return [...topics, ...GENERATED].sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group) || a.name.localeCompare(b.name));
}

/** `task`, or `blocks/task` when a name exists in several groups. */
export function findTopic(topics: readonly DocTopic[], query: string): DocTopic | undefined {
  const q = query.replace(/\.md$/, '').toLowerCase();
  return topics.find((t) => `${t.group}/${t.name}` === q) ?? topics.find((t) => t.name === q);
}

