// Source text of AST nodes: what the user wrote, exactly, for messages and the JSON projection,
// and the text of a plain quoted string.

import { endOffset, sourceMapOf, startOffset } from './positions.js';
import type { Range } from './diagnostic.js';
import type { Expression, File } from './ast.js';

/**
 * The text of a quoted string without interpolations or directives (`"abc"`, `""`, a plain
 * heredoc), or undefined for anything else: where a name or a reference is expected, such a string
 * is read as the text the user wrote.
 */
export function literalText(expr: Expression): string | undefined {
  if (expr.kind !== 'Template') return undefined;
  let text = '';
  for (const part of expr.parts) {
    if (part.kind !== 'TemplateLiteral') return undefined;
    text += part.value;
  }
  return text;
}

/** The exact source text of an expression. */
export function expressionSource(file: File, expr: Expression): string {
  return file.source.slice(startOffset(expr.range), endOffset(expr.range));
}

/** The exact source text of a parsed range (a parsed range knows its source: no File needed). */
export function rangeSource(range: Range): string {
  const map = sourceMapOf(range);
  if (map === undefined) throw new Error('internal error: only a parsed range has source text');
  return map.source.slice(startOffset(range), endOffset(range));
}
