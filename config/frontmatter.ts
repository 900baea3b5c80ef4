// Splits a Markdown document into its YAML frontmatter and its body, and parses the frontmatter with
// source positions kept, so a caller can point a diagnostic at the offending key or value. It knows
// nothing about what the keys mean (skills do, in config/skillFolders.ts).

import type { Node } from 'yaml';
import { yaml } from './yamlLib.js';
import type { Range } from './hcl/diagnostic.js';

export interface FrontmatterEntry {
  /** The key as written (non-string keys are stringified). */
  key: string;
  keyRange: Range;
  valueRange: Range;
  /** The value as plain JavaScript (`null` for `key:` with nothing after it). */
  value: unknown;
  /** The YAML node of the value, for callers that need positions inside it (e.g. a nested map). */
  node: Node | null;
}

export interface Frontmatter {
  /** Top-level keys in written order. */
  entries: FrontmatterEntry[];
  /** The opening `---` line: where "missing key" problems point. */
  openRange: Range;
  /** Everything after the closing `---` line. */
  body: string;
  /** 1-based line on which the body starts. */
  bodyLine: number;
  /** Range of a node given its yaml offsets (offsets are into the whole file). */
  rangeOf(node: Node): Range;
}

export type FrontmatterProblem = 'missing' | 'unterminated' | 'syntax' | 'not_a_mapping';

export type FrontmatterResult =
  | { ok: true; frontmatter: Frontmatter }
  | { ok: false; problem: FrontmatterProblem; message: string; range: Range };

const FENCE = /^---[ \t]*$/;
const CLOSE_FENCE = /^(?:---|\.\.\.)[ \t]*$/;

export function parseFrontmatter(source: string, file: string): FrontmatterResult {
  // A BOM is dropped; positions are then relative to the text after it (columns on line 1 shift by
  // one, which no editor shows anyway).
  const text = source.startsWith('\uFEFF') ? source.slice(1) : source;
  const lines = splitLines(text);
  const first = lines[0];
  const lineOneRange = rangeOnLine(file, 1, 0, first === undefined ? 0 : first.text.length);

  if (first === undefined || !FENCE.test(first.text)) {
    return {
      ok: false,
      problem: 'missing',
      message: 'the file does not start with YAML frontmatter (a `---` line)',
      range: lineOneRange,
    };
  }
  const closeIndex = lines.findIndex((l, i) => i > 0 && CLOSE_FENCE.test(l.text));
  const close = lines[closeIndex];
  if (closeIndex < 0 || close === undefined) {
    return {
      ok: false,
      problem: 'unterminated',
      message: 'the frontmatter opened on line 1 is never closed by a `---` line',
      range: lineOneRange,
    };
  }

  // Parsing the file's own prefix (opening `---` included, closing one excluded) keeps yaml's
  // offsets equal to file offsets, so LineCounter positions are file positions with no arithmetic.
  const { isMap, isScalar, LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text.slice(0, close.start), { lineCounter, prettyErrors: false });
  const rangeAt = (start: number, end: number): Range => {
    const s = lineCounter.linePos(start);
    const e = lineCounter.linePos(Math.max(start, end));
    return {
      file,
      start: { line: s.line, column: s.col, offset: start },
      end: { line: e.line, column: e.col, offset: Math.max(start, end) },
    };
  };

  const syntax = doc.errors[0];
  if (syntax !== undefined) {
    // An error at the very end of the frontmatter (unclosed quote or bracket) is caused where the
    // unfinished value began, so it points there rather than at the closing `---`.
    let [start, end] = syntax.pos;
    if (start >= close.start - 1 && isMap(doc.contents)) {
      const culprit = doc.contents.items.find((p) => {
        const r = (p.value as Node | null)?.range;
        return r !== undefined && r !== null && r[0] < start && r[1] >= start;
      });
      const r = (culprit?.value as Node | null)?.range;
      if (r) [start, end] = [r[0], r[0] + 1];
    }
    return { ok: false, problem: 'syntax', message: `invalid YAML: ${syntax.message}`, range: rangeAt(start, end) };
  }

  const rangeOf = (node: Node): Range => {
    const r = node.range;
    return r ? rangeAt(r[0], r[1]) : lineOneRange;
  };
  const bodyStart = close.start + close.text.length + close.eol.length;
  const base = {
    openRange: lineOneRange,
    body: text.slice(bodyStart),
    bodyLine: closeIndex + 2,
    rangeOf,
  };

  const contents = doc.contents;
  // `---` followed directly by `---` is an empty mapping, not an error: the caller reports the
  // missing required keys, which is the more useful message.
  if (contents === null || (isScalar(contents) && contents.value === null)) {
    return { ok: true, frontmatter: { ...base, entries: [] } };
  }
  if (!isMap(contents)) {
    return {
      ok: false,
      problem: 'not_a_mapping',
      message: 'the frontmatter must be a YAML mapping of `key: value` lines',
      range: rangeOf(contents),
    };
  }

  // Converted through the document so aliases resolve; duplicate keys were already syntax errors.
  const values = doc.toJS() as Record<string, unknown>;
  const entries: FrontmatterEntry[] = [];
  for (const pair of contents.items) {
    const keyNode = pair.key as Node | null;
    const valueNode = pair.value as Node | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    const keyRange = keyNode ? rangeOf(keyNode) : lineOneRange;
    entries.push({
      key,
      keyRange,
      valueRange: valueNode?.range ? rangeOf(valueNode) : keyRange,
      value: values[key] ?? null,
      node: valueNode,
    });
  }
  return { ok: true, frontmatter: { ...base, entries } };
}

interface Line {
  text: string;
  start: number;
  eol: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    lines.push({ text: text.slice(start, m.index), start, eol: m[0] });
    start = m.index + m[0].length;
  }
  if (start < text.length || lines.length === 0) lines.push({ text: text.slice(start), start, eol: '' });
  return lines;
}

function rangeOnLine(file: string, line: number, offset: number, length: number): Range {
  return {
    file,
    start: { line, column: 1, offset },
    end: { line, column: 1 + length, offset: offset + length },
  };
}
