// Searching the docs pages' text and headings, for `squadron docs --search <words>` and for the
// suggestions of an unknown topic (`docs postgres` points to scale-out). A page matches when each
// word of the query appears in it (case-insensitive, as a word's start: `postgres` finds PostgreSQL);
// pages are ranked by where the words appear: the title, then headings, then the text.

import type { DocTopic } from './docs.js';

export interface DocMatch {
  topic: DocTopic;
  /** Title and heading hits weigh more than hits in the text. */
  score: number;
  /** The first heading or line that holds a word of the query, on one line, for a listing. */
  line: string;
}

/** At most `limit` pages, best first, that hold every word of `query`. */
export async function searchDocs(topics: readonly DocTopic[], query: string, limit = 8): Promise<DocMatch[]> {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => w.length >= 2);
  if (words.length === 0) return [];
  const patterns = words.map((w) => new RegExp(`(?:^|[^\\p{L}\\p{N}_])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'iu'));
  const matches: DocMatch[] = [];
  for (const topic of topics) {
    // A generated page (builtins) is searched by its summary: building it loads the runtime.
    const text = topic.summary ?? (await topic.read());
    const name = topic.name.replace(/[-_]/g, ' ');
    if (!patterns.every((p) => p.test(text) || p.test(name))) continue;
    const lines = text.split(/\r?\n/);
    let score = 0;
    let shown: string | undefined;
    for (const p of patterns) {
      if (p.test(name)) score += 50;
      for (const line of lines) {
        if (!p.test(line)) continue;
        const heading = /^#{1,6} /.exec(line);
        score += heading ? (heading[0].length === 2 ? 20 : 8) : 1;
        if (shown === undefined || (heading && !/^#{1,6} /.test(shown))) shown = line;
      }
    }
    matches.push({ topic, score, line: around((shown ?? '').replace(/^#+\s*/, '').replace(/[`|*]/g, '').replace(/\s+/g, ' ').trim(), patterns[0]!) });
  }
  return matches.sort((a, b) => b.score - a.score || a.topic.name.localeCompare(b.topic.name)).slice(0, limit);
}

/** The part of `line` around the first match of `pattern`, at most SNIPPET characters, cut at words. */
const SNIPPET = 90;
function around(line: string, pattern: RegExp): string {
  if (line.length <= SNIPPET) return line;
  const at = Math.max(0, line.search(pattern));
  let start = Math.max(0, at - 30);
  if (start > 0) start = line.indexOf(' ', start) + 1 || start;
  const end = Math.min(line.length, start + SNIPPET);
  const cut = line.slice(start, end).replace(/\s+\S*$/, end < line.length ? '' : '$&');
  return `${start > 0 ? '…' : ''}${cut}${end < line.length ? '…' : ''}`;
}

/** `worker`, or `commands/worker` when another group has a page of that name. */
export function topicLabel(topics: readonly DocTopic[], topic: DocTopic): string {
  return topics.some((t) => t !== topic && t.name === topic.name) && topic.group !== '' ? `${topic.group}/${topic.name}` : topic.name;
}
