// Small helpers for the HCL unit tests: parse one expression, evaluate it with the standard
// library, and render diagnostics compactly as "line:col CODE summary".

import { evaluate, parseHcl, stdlibFunctions, type Diagnostic, type EvalResult, type Expression, type HclFunction, type Value } from '../../../../config/hcl/index.js';

export function parseExpr(src: string): Expression {
  const { file, diagnostics } = parseHcl(`x = ${src}\n`, 'expr.hcl');
  if (diagnostics.length > 0) throw new Error(`syntax error in test expression: ${brief(diagnostics).join('; ')}`);
  const attr = file.body.attributes[0];
  if (!attr) throw new Error('no attribute parsed');
  return attr.expr;
}

export function ev(src: string, variables: Record<string, Value> = {}, functions: Record<string, HclFunction> = stdlibFunctions): EvalResult {
  return evaluate(parseExpr(src), { variables, functions });
}

/** The value, asserting there were no diagnostics. */
export function value(src: string, variables: Record<string, Value> = {}): Value {
  const r = ev(src, variables);
  if (r.diagnostics.length > 0) throw new Error(`unexpected diagnostics for ${src}: ${brief(r.diagnostics).join('; ')}`);
  return r.value;
}

/** "line:col CODE Summary" for each diagnostic (the summary is the message up to the first colon). */
export function brief(diags: readonly Diagnostic[]): string[] {
  return diags.map((d) => `${d.line}:${d.column} ${d.code} ${d.message.slice(0, d.message.indexOf(':'))}`);
}
