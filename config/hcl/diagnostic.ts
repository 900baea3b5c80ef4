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

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}
