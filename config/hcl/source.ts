// Source text of AST nodes: what the user wrote, exactly, for messages and the JSON projection.

import type { Expression, File } from './ast.js';

/** The exact source text of an expression. */
export function expressionSource(file: File, expr: Expression): string {
  return file.source.slice(expr.range.start.offset, expr.range.end.offset);
}
