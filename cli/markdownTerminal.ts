// Renders a documentation page (Markdown) for a terminal with marked + marked-terminal: paragraphs
// and list items reflowed, tables sized to the width (cells wrap at spaces; a table whose words do
// not fit its columns is reflowed as a list, one item per row, so no cell is ever cut), code blocks
// indented without their fence line and never wrapped (pasted, an example must stay what it is),
// links to other pages shown as the `squadron docs` topic. Every other output line fits `width`.
// Without colour every escape code is removed. Only `squadron docs` loads this module.

import { Marked, type MarkedExtension, type Tokens } from 'marked';
import { markedTerminal } from 'marked-terminal';
import { highlightHcl } from './hclHighlight.js';
import { stripAnsi, wrapLine } from './terminalText.js';

export interface TerminalMarkdownOptions {
  /** Columns available; every output line fits in it. */
  width: number;
  /** Styled headings, code and tables; false gives plain text (still aligned and wrapped). */
  color: boolean;
}

/** The narrowest width we lay out for; a smaller terminal gets lines of this width. */
const MIN_WIDTH = 30;
const TAB = 4;

export function renderMarkdown(markdown: string, opts: TerminalMarkdownOptions): string {
  const width = Math.max(MIN_WIDTH, Math.floor(opts.width));
  // marked-terminal hands these options to cli-table3 for every table; the table renderer below
  // sets the column widths of the table about to be drawn.
  const tableOptions: TableOptions = { wordWrap: true, wrapOnWordBoundary: true, style: { head: opts.color ? ['cyan'] : [], border: [] } };
  const marked = new Marked();
  // Its types describe a Renderer; at run time it returns a marked extension.
  marked.use(markedTerminal({ reflowText: true, width, tab: TAB, emoji: false, showSectionPrefix: true, tableOptions }) as unknown as MarkedExtension);
  marked.use({
    walkTokens(token) {
      // A list item's source line breaks are soft: join them so the item wraps to the width.
      if (token.type === 'list_item') joinSoftBreaks(token as Tokens.ListItem);
      // Code lines are marked so the last pass leaves them whole (marked-terminal may draw them).
      if (token.type === 'code') (token as Tokens.Code).text = (token as Tokens.Code).text.split('\n').map((l) => `${KEEP}${l}`).join('\n');
    },
    renderer: {
      text(token) {
        // A list item's text arrives as a block token; marked-terminal would print its source.
        if ('tokens' in token && token.tokens !== undefined) return this.parser.parseInline(token.tokens);
        return false;
      },
      code(token) {
        // The info string's first word is the language (`hcl partial` is an HCL fragment).
        const lang = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
        if (opts.color && HIGHLIGHTED.has(lang)) {
          token.lang = lang;
          return false; // highlighted by marked-terminal
        }
        const body = !opts.color ? token.text : lang === 'hcl' ? highlightHcl(token.text) : style(token.text, CODE);
        return `${indentLines(body, ' '.repeat(TAB))}\n\n`;
      },
      table(token) {
        if (!sizeTable(token, width, tableOptions)) return `${tableAsList(token, (cell) => this.parser.parseInline(cell.tokens))}\n`;
        return false; // drawn by marked-terminal with the widths just set
      },
      link(token) {
        const text = this.parser.parseInline(token.tokens);
        return `${text} (${linkTarget(token.href)})`;
      },
    },
  });
  const rendered = (marked.parse(markdown, { async: false }) as string).replace(/\n{3,}/g, '\n\n').trimEnd();
  const text = opts.color ? rendered : stripAnsi(rendered);
  return text
    .split('\n')
    .flatMap((line) => (line.includes(KEEP) ? [line.replaceAll(KEEP, '').trimEnd()] : wrapLine(line.trimEnd(), width)))
    .join('\n');
}

/** Marks a line of a code block: kept whole by the last pass (a private-use character, never in a page). */
const KEEP = '\uE000';

/**
 * A table too narrow for its words, as a list: each row's first cell, then every other cell under
 * its column's header. Each line then wraps to the width like any paragraph.
 */
function tableAsList(token: Tokens.Table, inline: (cell: Tokens.TableCell) => string): string {
  const headers = token.header.map(inline);
  const out: string[] = [];
  for (const row of token.rows) {
    const cells = row.map(inline);
    out.push(`• ${headers[0] ? `${headers[0]}: ` : ''}${cells[0] ?? ''}`);
    for (let i = 1; i < cells.length; i++) if ((cells[i] ?? '').trim() !== '') out.push(`    ${headers[i] ?? ''}: ${cells[i]}`);
  }
  // marked-terminal hides a code span's colons until its own last pass, which this text skips.
  return `${out.join('\n').replaceAll('*#COLON|*', ':')}\n`;
}

/** Languages marked-terminal's highlighter knows; other code blocks are drawn here. */
const HIGHLIGHTED = new Set(['json', 'sh', 'bash', 'shell']);

const CODE = '33'; // yellow, as marked-terminal draws code

function style(text: string, sgr: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `\u001b[${sgr}m${line}\u001b[0m`))
    .join('\n');
}

function indentLines(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : indent + line))
    .join('\n');
}

/** `../concepts/workspace.md` → `squadron docs workspace`; anything else as written. */
function linkTarget(href: string): string {
  const page = /^(?:\.{0,2}\/)*(?:[\w-]+\/)*([\w-]+)\.md(?:#.*)?$/.exec(href);
  return page ? `squadron docs ${page[1]}` : href;
}

function joinSoftBreaks(item: Tokens.ListItem): void {
  for (const child of item.tokens) {
    if (child.type !== 'text') continue;
    const text = child as Tokens.Text;
    text.text = text.text.replace(/\n(?!\s*([-*+]|\d+\.)\s)/g, ' ');
    text.raw = text.raw.replace(/\n(?!\s*([-*+]|\d+\.)\s)/g, ' ');
    for (const inline of text.tokens ?? []) {
      if (inline.type === 'text') (inline as Tokens.Text).text = (inline as Tokens.Text).text.replace(/\n/g, ' ');
    }
  }
}

interface TableOptions {
  wordWrap: boolean;
  wrapOnWordBoundary: boolean;
  style: { head: string[]; border: string[]; compact?: boolean };
  colWidths?: number[];
}

/** Markdown source of a cell → roughly what the terminal shows (code ticks, emphasis, link syntax dropped). */
function visibleText(source: string): string {
  return source.replace(/\[([^\]]*)\]\(([^)]*)\)/g, '$1 ($2)').replace(/[`*]/g, '');
}

/**
 * Column widths (padding included) that fit the table in `width`: columns that fit keep their
 * natural width, the others share what is left, so their cells wrap. A table that needs no wrapping
 * is drawn compact: a line under the header, none between rows.
 */
function sizeTable(token: Tokens.Table, width: number, options: TableOptions): boolean {
  const rows = [token.header, ...token.rows];
  const columns = token.header.length;
  const natural = Array.from({ length: columns }, (_, i) => 2 + Math.max(1, ...rows.map((r) => visibleText(r[i]?.text ?? '').length)));
  const available = width - (columns + 1); // the borders
  const widths = shareWidth(natural, available);
  // A word longer than its column would be cut by the table (`claude_sonnet…`): reflow instead.
  const longestWord = Array.from({ length: columns }, (_, i) => Math.max(1, ...rows.flatMap((r) => visibleText(r[i]?.text ?? '').split(/\s+/).map((w) => w.length))));
  if (widths.some((w, i) => w - 2 < longestWord[i]!)) return false;
  options.colWidths = widths;
  options.style.compact = widths.every((w, i) => w >= natural[i]!);
  return true;
}

/** Water-filling: the narrowest wishes are granted first; the rest split the remainder evenly. */
export function shareWidth(wanted: readonly number[], available: number): number[] {
  const out = new Array<number>(wanted.length).fill(0);
  const order = wanted.map((w, i) => [w, i] as const).sort((a, b) => a[0] - b[0]);
  let left = Math.max(available, 3 * wanted.length);
  order.forEach(([w, i], k) => {
    const share = Math.floor(left / (order.length - k));
    out[i] = Math.max(3, Math.min(w, share));
    left -= out[i]!;
  });
  return out;
}
