// The evaluation environment threaded through the evaluator modules: the caller's context, local
// names introduced by `for` expressions, template `for` directives and splats, and the diagnostics
// collected so far.

import type { Expression } from './ast.js';
import type { Diagnostic, Range } from './diagnostic.js';
import { diagnosticAt } from './diagnostic.js';
import type { MarkState } from './marks.js';
import type { EvalContext, Value } from './value.js';

export interface Env {
  readonly ctx: EvalContext;
  /** Locals shadow ctx.variables; a prototype chain gives nested scopes cheaply. */
  readonly locals: Record<string, Value> | undefined;
  readonly diags: Diagnostic[];
  readonly evalExpr: (e: Expression, env: Env) => Value;
  /** Sensitivity marks, when the context names secret values (marks.ts). */
  readonly marks: MarkState | undefined;
}

export function withLocals(env: Env, vars: Record<string, Value>): Env {
  const locals = Object.create(env.locals ?? null) as Record<string, Value>;
  for (const k of Object.keys(vars)) locals[k] = vars[k]!;
  return { ctx: env.ctx, locals, diags: env.diags, evalExpr: env.evalExpr, marks: env.marks };
}

export function report(env: Env, range: Range, code: string, message: string, hint?: string): void {
  env.diags.push(diagnosticAt(range, 'error', code, message, hint));
}
