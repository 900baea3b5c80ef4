// Canonical layout of HCL source, as `terraform fmt` (hclwrite) does it: two-space indentation by
// bracket nesting, one space between most tokens, `=` of consecutive one-line attributes aligned,
// trailing comments aligned. Only whitespace between tokens changes: every token, comment, string
// and heredoc is kept byte for byte, so the syntax tree is the same before and after, and
// formatting twice gives what formatting once gave. A file with syntax errors is not formatted.

import type { Diagnostic } from './diagnostic.js';
import { lex } from './lexer.js';
import { parseHcl } from './parser.js';
import { SourceMap } from './positions.js';
import { T, type TokenBuffer, type TokenType } from './tokens.js';

export interface FormatResult {
  /** The formatted text; absent when the source has syntax errors. */
  text?: string;
  diagnostics: Diagnostic[];
}

/** Kinds of item on a line beyond the lexer's tokens. */
const COMMENT = -1;
/** A whole quoted string or heredoc, kept verbatim. */
const TEMPLATE = -2;
type ItemType = TokenType | typeof COMMENT | typeof TEMPLATE;

interface Item {
  type: ItemType;
  text: string;
}

interface Line {
  lead: Item[];
  assign: Item[] | undefined;
  /** A `#` or `//` comment ending a line that has other items. */
  comment: Item | undefined;
  indent: number;
}

export function formatHcl(source: string, fileName: string): FormatResult {
  const parsed = parseHcl(source, fileName);
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: parsed.diagnostics };
  const { tokens } = lex(new SourceMap(fileName, source));
  const lines = splitLines(source, tokens);
  indentLines(lines);
  const text = render(lines);
  return { text, diagnostics: [] };
}

/** Tokens into lines of items: strings and heredocs whole, comments recovered from the gaps. */
function splitLines(src: string, tokens: TokenBuffer): Line[] {
  const lines: Line[] = [];
  let items: Item[] = [];
  let pos = 0;
  const gap = (until: number): void => {
    const text = src.slice(pos, until).trim();
    if (text !== '') items.push({ type: COMMENT, text });
  };
  const endLine = (comment?: Item): void => {
    const line: Line = { lead: items, assign: undefined, comment: undefined, indent: 0 };
    if (comment !== undefined) {
      if (items.length === 0) line.lead = [comment];
      else line.comment = comment;
    }
    lines.push(line);
    items = [];
  };
  for (let i = 0; i < tokens.count; i++) {
    const type = tokens.types[i] as TokenType;
    const start = tokens.starts[i]!;
    gap(start);
    if (type === T.EOF) break;
    if (type === T.OQuote || type === T.OHeredoc) {
      const last = closingOf(tokens, i);
      const end = tokens.ends[last]!;
      items.push({ type: TEMPLATE, text: src.slice(start, end) });
      pos = end;
      i = last;
      continue;
    }
    const text = src.slice(start, tokens.ends[i]!);
    pos = tokens.ends[i]!;
    if (type === T.Newline) {
      const comment = text.trimEnd();
      endLine(comment === '' ? undefined : { type: COMMENT, text: comment });
      continue;
    }
    items.push({ type, text });
  }
  gap(src.length);
  if (items.length > 0) endLine();
  for (const line of lines) splitAssign(line);
  return lines;
}

/** The index of the token closing the string or heredoc opened at `open`. */
function closingOf(tokens: TokenBuffer, open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.count; i++) {
    const t = tokens.types[i];
    if (t === T.OQuote || t === T.OHeredoc) depth++;
    else if (t === T.CQuote || t === T.CHeredoc) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return tokens.count - 1;
}

/** Moves `= value` into its own cell when the value ends on this line (so it can be aligned). */
function splitAssign(line: Line): void {
  const at = line.lead.findIndex((item, i) => i > 0 && item.type === T.Equal);
  if (at < 0) return;
  if (line.lead.slice(at).reduce((n, item) => n + bracketChange(item.type), 0) !== 0) return;
  line.assign = line.lead.slice(at);
  line.lead = line.lead.slice(0, at);
}

function bracketChange(type: ItemType): number {
  if (type === T.OBrace || type === T.OBrack || type === T.OParen) return 1;
  if (type === T.CBrace || type === T.CBrack || type === T.CParen) return -1;
  return 0;
}

/** hclwrite's indent stack: a line with more openers than closers indents what follows by one level. */
function indentLines(lines: Line[]): void {
  const indents: number[] = [];
  for (const line of lines) {
    const net = [...line.lead, ...(line.assign ?? [])].reduce((n, item) => n + bracketChange(item.type), 0);
    if (net < 0) {
      let closed = -net;
      while (closed > 0 && indents.length > 0) {
        const top = indents[indents.length - 1]!;
        if (closed >= top) {
          closed -= top;
          indents.pop();
        } else {
          indents[indents.length - 1] = top - closed;
          closed = 0;
        }
      }
    }
    line.indent = indents.length;
    if (net > 0) indents.push(net);
  }
}

function render(lines: Line[]): string {
  const leads = lines.map((l) => (l.lead.length === 0 ? '' : '  '.repeat(l.indent) + joinItems(l.lead)));
  const assigns = lines.map((l) => (l.assign === undefined ? undefined : joinItems(l.assign)));
  // Align `=` over each run of consecutive lines that have an assignment cell. A value that spans
  // lines (a heredoc) ends the run, as hclwrite's heredoc body lines do: its opening line aligns with
  // the lines above, and the attributes below its body start a run of their own.
  const body = alignRuns(
    lines.map((_, i) => assigns[i] !== undefined),
    (i) => leads[i]!.length,
    (i, width) => `${leads[i]!.padEnd(width)} ${assigns[i]}`,
    (i) => leads[i]!,
    (i) => assigns[i]!.includes('\n'),
  );
  // Then trailing comments over each run of lines that have one.
  const out = alignRuns(
    lines.map((l) => l.comment !== undefined),
    (i) => body[i]!.length,
    (i, width) => `${body[i]!.padEnd(width)} ${lines[i]!.comment!.text}`,
    (i) => body[i]!,
  );
  const text = out.map((l) => l.trimEnd()).join('\n').replace(/\n+$/, '');
  return text === '' ? '' : `${text}\n`;
}

function alignRuns(
  inRun: boolean[],
  width: (i: number) => number,
  aligned: (i: number, width: number) => string,
  plain: (i: number) => string,
  endsRun: (i: number) => boolean = () => false,
): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < inRun.length) {
    if (!inRun[i]) {
      out.push(plain(i));
      i++;
      continue;
    }
    let end = i;
    let max = 0;
    while (end < inRun.length && inRun[end]) {
      max = Math.max(max, width(end));
      if (endsRun(end++)) break;
    }
    for (let j = i; j < end; j++) out.push(aligned(j, max));
    i = end;
  }
  return out;
}

function joinItems(items: readonly Item[]): string {
  let out = items[0]?.text ?? '';
  for (let i = 1; i < items.length; i++) {
    out += (spaceBetween(items[i - 1]!, items[i - 2], items[i]!) ? ' ' : '') + items[i]!.text;
  }
  return out;
}

const NEGATION_CONTEXT: ReadonlySet<ItemType> = new Set<ItemType>([
  T.OParen, T.OBrace, T.OBrack, T.Equal, T.Colon, T.Comma, T.Question,
  T.Plus, T.Star, T.Slash, T.Percent, T.Minus,
  T.EqualOp, T.NotEqual, T.GreaterThan, T.GreaterThanEq, T.LessThan, T.LessThanEq,
  T.And, T.Or, T.Bang,
]);

/** hclwrite's spaceAfterToken: whether `subject` is followed by a space before `after`. */
function spaceBetween(subjectItem: Item, beforeItem: Item | undefined, afterItem: Item): boolean {
  const [subject, before, after] = [subjectItem.type, beforeItem?.type, afterItem.type];
  // `[for x in [a, b] : x]`: `in` is a keyword here, not a name being indexed.
  if (subject === T.Ident && subjectItem.text === 'in' && before === T.Ident) return true;
  if (subject === T.Ident && after === T.OParen) return false;
  if ((subject === T.Ident && after === T.DoubleColon) || (subject === T.DoubleColon && after === T.Ident)) return false;
  if (subject === T.Dot || after === T.Dot) return false;
  if (after === T.Comma || after === T.Ellipsis) return false;
  if (subject === T.Comma) return true;
  if (after === T.OBrack && (subject === T.Ident || subject === T.Number || subject === TEMPLATE || bracketChange(subject) < 0)) return false;
  if (subject === T.Bang) return false;
  if (subject === T.Minus) return before !== undefined && !NEGATION_CONTEXT.has(before);
  if (subject === T.OBrace || after === T.CBrace) return !(subject === T.OBrace && after === T.CBrace);
  if (bracketChange(subject) > 0) return false;
  if (bracketChange(after) < 0) return false;
  return true;
}
