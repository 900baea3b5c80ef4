// One syntax error, one report. A block that failed to parse has lost attributes and blocks the
// parser could not read, so the checks that report something *missing* from it (a required
// attribute, a work source, any task at all) would only echo the syntax error: such a check is
// dropped when the block it is about (the innermost one at its position) contains a syntax error. And an unclosed quote makes the lexer read the following
// lines as string text, one "multi-line string" error per line: only the first is kept.

import type { Block, File } from './hcl/ast.js';
import type { Diagnostic, Range } from './hcl/diagnostic.js';

/** Checks that say something is absent; a syntax error inside the block may be the reason. */
const ABSENCE_CODES: ReadonlySet<string> = new Set(['SCH003', 'SCH004', 'GRA001', 'GRA002', 'GRA008', 'GRA011']);
const MULTI_LINE_STRING = 'SYN004';
const UNTERMINATED_STRING = 'SYN005';

const isSyntax = (d: Diagnostic): boolean => d.severity === 'error' && d.code.startsWith('SYN');

/** Removes the diagnostics that only follow from a syntax error already reported. */
export function dropSyntaxCascades(diags: readonly Diagnostic[], files: ReadonlyMap<string, File>): Diagnostic[] {
  const syntax = diags.filter(isSyntax);
  if (syntax.length === 0) return [...diags];
  const echoesSyntaxError = (d: Diagnostic): boolean => {
    if (!ABSENCE_CODES.has(d.code)) return false;
    const file = files.get(d.file);
    const block = file === undefined ? undefined : innermostBlock(file.body.blocks, d);
    return block !== undefined && syntax.some((s) => contains(block.range, s));
  };
  return collapseRunawayStrings(diags.filter((d) => !echoesSyntaxError(d)));
}

/** The deepest block whose range holds the diagnostic's position: the block it is about. */
function innermostBlock(blocks: readonly Block[], d: Diagnostic): Block | undefined {
  const outer = blocks.find((b) => contains(b.range, d));
  if (outer === undefined) return undefined;
  return innermostBlock(outer.body.blocks, d) ?? outer;
}

function contains(range: Range, d: Diagnostic): boolean {
  if (range.file !== d.file) return false;
  const afterStart = d.line > range.start.line || (d.line === range.start.line && d.column >= range.start.column);
  const beforeEnd = d.line < range.end.line || (d.line === range.end.line && d.column <= range.end.column);
  return afterStart && beforeEnd;
}

/** Keeps the first multi-line-string error of each file and says how many later lines it misread. */
function collapseRunawayStrings(diags: readonly Diagnostic[]): Diagnostic[] {
  const firstByFile = new Map<string, Diagnostic>();
  const hidden = new Map<Diagnostic, number>();
  const out: Diagnostic[] = [];
  for (const d of diags) {
    if (d.code !== MULTI_LINE_STRING && d.code !== UNTERMINATED_STRING) {
      out.push(d);
      continue;
    }
    const first = firstByFile.get(d.file);
    if (first === undefined || d.code === UNTERMINATED_STRING) {
      if (d.code === MULTI_LINE_STRING) firstByFile.set(d.file, d);
      out.push(d);
      continue;
    }
    hidden.set(first, (hidden.get(first) ?? 0) + 1);
  }
  return out.map((d) => {
    const n = hidden.get(d);
    if (n === undefined) return d;
    const more = `the lines after it are read as string text until the next quote (${n} more error${n === 1 ? '' : 's'} like this one not shown)`;
    return { ...d, hint: d.hint === undefined ? more : `${d.hint} ${more[0]!.toUpperCase()}${more.slice(1)}.` };
  });
}
