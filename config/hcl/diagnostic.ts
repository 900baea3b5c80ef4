// Diagnostics as values: the one shape every layer (parser, loader, CLI) uses to report a problem
// the user can fix. Defined here, at the bottom of the dependency graph, so `config/hcl` can produce
// them without importing the loader; `config/diagnostics.ts` adds the code registry and rendering.

export type Severity = 'error' | 'warning';

/** A 1-based line/column position plus the 0-based offset (UTF-16 code units) into the source text. */
export interface Pos {
  line: number;
  column: number;
  offset: number;
}

/** A half-open source range [start, end) inside one file. */
export interface Range {
  file: string;
  start: Pos;
  end: Pos;
}

/**
 * Another place a diagnostic involves, such as where a repeated name was first declared. Kept out
 * of the message so renderers can show its path the way they show the diagnostic's own (relative
 * to the working directory); they append it to the message as "(<label> <file>:<line>:<column>)".
 */
export interface RelatedLocation {
  /** Reads before the location: "first declared at". */
  label: string;
  file: string;
  line: number;
  column: number;
}

export interface Diagnostic {
  severity: Severity;
  /** Stable code grouped by kind: SYN (syntax), SCH (schema), REF (reference), GRA (graph), MCP, SKL. */
  code: string;
  message: string;
  hint?: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  related?: RelatedLocation;
}

export function diagnosticAt(
  range: Range,
  severity: Severity,
  code: string,
  message: string,
  hint?: string,
): Diagnostic {
  const d: Diagnostic = {
    severity,
    code,
    message,
    file: range.file,
    line: range.start.line,
    column: range.start.column,
    endLine: range.end.line,
    endColumn: range.end.column,
  };
  if (hint !== undefined) d.hint = hint;
  return d;
}

/**
 * A range at a line and column known without the source text (a block's recorded location, the
 * first line of a file): `width` columns wide on that line. Offsets are unknown and left 0.
 */
export function rangeAtLocation(at: { file: string; line: number; column: number }, width = 0): Range {
  return { file: at.file, start: { line: at.line, column: at.column, offset: 0 }, end: { line: at.line, column: at.column + width, offset: 0 } };
}

/** The related location at the start of `range`. */
export function relatedAt(label: string, range: Range): RelatedLocation {
  return { label, file: range.file, line: range.start.line, column: range.start.column };
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}
