// `squadron docs [topic]`: prints a page of the documentation shipped in docs/ (one per block,
// command and concept), rendered for the terminal and wrapped to its width, through the pager when
// the page is taller than the terminal. Without a topic it lists them with their one-line
// descriptions; `--search <words>` lists the pages whose text or headings hold the words; an unknown
// topic is an error (exit 2) that suggests the topics named alike and the pages that mention it.

import type { Command } from 'commander';
import { findTopic, GROUP_ORDER, listTopics, pageSummary, type DocTopic } from '../../api/docs.js';
import { searchDocs, topicLabel } from '../../api/docsSearch.js';
import { closest } from '../../api/suggest.js';
import { CliError, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';

const GROUP_TITLES: Readonly<Record<string, string>> = {
  blocks: 'Blocks',
  commands: 'Commands',
  concepts: 'Concepts',
  '': 'Reference',
};
/** The topics with their one-line summaries (each page is read only here, for the index). */
async function renderIndex(topics: readonly DocTopic[], columns: number, wrap: Wrap, groups: readonly string[] = GROUP_ORDER): Promise<string> {
  const width = Math.max(...topics.map((t) => t.name.length));
  const lines: string[] = ['Documentation topics (squadron docs <topic>):'];
  for (const group of groups) {
    const inGroup = topics.filter((t) => t.group === group);
    if (inGroup.length === 0) continue;
    lines.push('', `${GROUP_TITLES[group] ?? group}:`);
    for (const t of inGroup) lines.push(...wrap(`  ${t.name.padEnd(width)}  ${(t.summary ?? pageSummary(await t.read())).replace(/`/g, '')}`, columns, width + 4));
  }
  return lines.join('\n');
}

type Wrap = (line: string, width: number, hang?: number) => string[];

/** Terminal: its width. Piped: `COLUMNS` when set to a number, else 80. */
export function outputWidth(io: CliIo): number {
  const tty = io.stdoutIsTTY ? (io.stdout as Partial<NodeJS.WriteStream>).columns : undefined;
  if (tty !== undefined && tty > 0) return tty;
  const env = Number(io.env['COLUMNS']);
  return Number.isInteger(env) && env > 0 ? env : 80;
}

/** NO_COLOR (https://no-color.org) wins, FORCE_COLOR asks for colour when piped, else colour on a terminal. */
function docsColor(io: CliIo): boolean {
  if (io.env['NO_COLOR']) return false;
  const force = io.env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  return io.stdoutIsTTY;
}

/** Writes a page, through the pager when stdout is a terminal shorter than the page. */
async function show(text: string, io: CliIo, usePager: boolean): Promise<void> {
  if (usePager && io.stdoutIsTTY) {
    const { needsPager, page } = await import('../pager.js');
    if (needsPager(text, (io.stdout as Partial<NodeJS.WriteStream>).rows) && (await page(`${text}\n`, { pager: io.env['PAGER'], env: io.env }))) return;
  }
  io.stdout.write(`${text}\n`);
}

export function register(program: Command, io: CliIo): void {
  program
    .command('docs')
    .description('Print a documentation page (without a topic: list the topics)')
    .argument('[topic]', 'a block, command or concept, e.g. task, validate, worker')
    .option('--no-pager', 'print the page directly even on a terminal')
    .option('--search <words>', "list the pages whose text or headings hold these words (e.g. --search postgres)")
    .option('--json', JSON_FLAG_HELP)
    .action(async (topic: string | undefined, opts: { pager: boolean; search?: string; json?: boolean }) => {
      const topics = listTopics();
      if (opts.search !== undefined) {
        await search(io, topics, opts.search, Boolean(opts.json));
        return;
      }
      const query = topic?.trim().replace(/\/$/, '') ?? '';
      const columns = outputWidth(io);
      const { wrapLine } = await import('../terminalText.js');
      if (query === '' || GROUP_ORDER.includes(query)) {
        const groups = query === '' ? GROUP_ORDER : [query]; // a group name lists that group
        if (opts.json) {
          const listed = topics.filter((t) => groups.includes(t.group));
          writeJson(io, { topics: await Promise.all(listed.map(async (t) => ({ name: t.name, group: t.group, summary: (t.summary ?? pageSummary(await t.read())).replace(/`/g, '') }))) });
          return;
        }
        await show(await renderIndex(topics, columns, wrapLine, groups), io, opts.pager);
        return;
      }
      const found = findTopic(topics, query);
      if (found === undefined) throw await unknownTopic(topics, topic ?? query, query);
      if (opts.json) {
        writeJson(io, { topic: found.name, group: found.group, markdown: await found.read() });
        return;
      }
      // The renderer (marked, marked-terminal and its highlighter) is loaded only for a page.
      const { renderMarkdown } = await import('../markdownTerminal.js');
      const page = renderMarkdown(await found.read(), { width: columns, color: docsColor(io) });
      await show(page, io, opts.pager);
    });
}

/** `--search`: the pages that hold the words, best first, each with the line that holds them. */
async function search(io: CliIo, topics: readonly DocTopic[], words: string, json: boolean): Promise<void> {
  const matches = await searchDocs(topics, words, 20);
  if (json) {
    writeJson(io, { query: words, matches: matches.map((m) => ({ topic: topicLabel(topics, m.topic), group: m.topic.group, line: m.line })) });
    return;
  }
  if (matches.length === 0) {
    io.stdout.write(`no docs page mentions "${words}"; run squadron docs to list the topics\n`);
    return;
  }
  const labels = matches.map((m) => topicLabel(topics, m.topic));
  const width = Math.max(...labels.map((l) => l.length));
  const { wrapLine } = await import('../terminalText.js');
  io.stdout.write(`Pages that mention "${words}" (squadron docs <topic>):\n`);
  matches.forEach((m, i) => {
    for (const line of wrapLine(`  ${labels[i]!.padEnd(width)}  ${m.line}`, outputWidth(io), width + 4)) io.stdout.write(`${line}\n`);
  });
}

/** An unknown topic: the names alike, then the pages whose text mentions it (`docs postgres` → scale-out). */
async function unknownTopic(topics: readonly DocTopic[], given: string, query: string): Promise<CliError> {
  const names = topics.map((t) => t.name);
  const near = closest(query, names);
  // Substring suggestions only for a query long enough to mean something.
  const also = query.length < 3 ? [] : names.filter((n) => n !== near && (n.includes(query) || query.includes(n))).slice(0, 3);
  const suggestions = [...(near === undefined ? [] : [near]), ...also];
  const mentioned = (await searchDocs(topics, query, 4)).map((m) => topicLabel(topics, m.topic)).filter((n) => !suggestions.includes(n));
  const hint = suggestions.length > 0 ? `did you mean ${suggestions.join(', ')}? ` : '';
  const pages = mentioned.length > 0 ? `Pages that mention it: ${mentioned.join(', ')} (squadron docs --search ${query.includes(' ') ? `'${query}'` : query} for more). ` : '';
  return new CliError(`unknown docs topic "${given}". ${hint}${pages}Run squadron docs to list the topics.`, 'not_found', { did_you_mean: suggestions, mentioned_in: mentioned });
}
