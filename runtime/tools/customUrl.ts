// A custom tool's `url` template, evaluated so that model input cannot rewrite it. Each interpolation
// that reads `inputs` is percent-encoded for where it stands: in the path a value is one segment
// (`/` and `?` are encoded, `.` and `..` refused), in the query one value (`&`, `=`, `#` encoded), in
// the fragment text. Interpolations of `vars` and literals are the config's and stay as written;
// a `urlencode(…)` call is already encoded. Then the URL must keep the template's origin.

import type { Expression, TemplateExpr, TemplatePart } from '../../config/hcl/ast.js';
import type { Diagnostic } from '../../config/hcl/diagnostic.js';
import { evaluate } from '../../config/hcl/index.js';
import { numberToString } from '../../config/hcl/index.js';
import { isUnknown, type EvalContext, type SensitiveString, type Value } from '../../config/hcl/value.js';

export type UrlOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/** Scheme and authority written out, then the first `/`, `?` or `#`: the origin is fixed from here on. */
const AUTHORITY_DONE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*[/?#]/i;

/** `sensitive`, with ctx.sensitive: receives what the parts computed from a secret (marks). */
export function evaluateUrlTemplate(expr: Expression, ctx: EvalContext, sensitive: SensitiveString[] = []): UrlOutcome | undefined {
  // A URL that is one expression (`inputs.url`, `"${vars.base}"`) has no template to keep.
  if (expr.kind !== 'Template' || expr.parts.length < 2 || !readsInputs(expr)) return undefined;
  let text = '';
  let skeleton = '';
  let originFixed = true;
  for (const part of expr.parts) {
    if (part.kind === 'TemplateLiteral') {
      text += part.value;
      skeleton += part.value;
      continue;
    }
    const value = partText(part, expr, ctx, sensitive);
    if (!value.ok) return value;
    if (!readsInputs(part) || isUrlencodeCall(part)) {
      text += value.value;
      skeleton += value.value;
      continue;
    }
    if (!AUTHORITY_DONE.test(text)) originFixed = false;
    const encoded = encodeFor(text, value.value);
    if (!encoded.ok) return encoded;
    text += encoded.value;
  }
  if (originFixed) {
    const expected = originOf(skeleton);
    const actual = originOf(text);
    if (expected !== undefined && actual !== expected) return { ok: false, error: `the URL built from your inputs leaves ${expected} (the tool's URL), so it is refused` };
  }
  return { ok: true, value: text };
}

function encodeFor(before: string, value: string): { ok: true; value: string } | { ok: false; error: string } {
  if (before.includes('#') || before.includes('?')) return { ok: true, value: encodeURIComponent(value) };
  // In the path (or, with no fixed authority, the host): one segment, never a step up.
  if (value === '.' || value === '..') return { ok: false, error: `"${value}" cannot be a path segment of the URL` };
  return { ok: true, value: encodeURIComponent(value) };
}

function partText(part: TemplatePart, whole: TemplateExpr, ctx: EvalContext, sensitive: SensitiveString[]): { ok: true; value: string } | { ok: false; error: string } {
  const expr: Expression = part.kind === 'TemplateInterpolation' ? part.expr : { ...whole, parts: [part] };
  const result = evaluate(expr, ctx);
  if (result.sensitive !== undefined) sensitive.push(...result.sensitive);
  const problems = result.diagnostics.filter((d: Diagnostic) => d.severity === 'error');
  if (problems.length > 0) return { ok: false, error: problems.map((d) => `(${d.file}:${d.line}:${d.column}): ${d.message}`).join('; ') };
  return stringOf(result.value);
}

function stringOf(v: Value): { ok: true; value: string } | { ok: false; error: string } {
  if (typeof v === 'string') return { ok: true, value: v };
  if (typeof v === 'number') return { ok: true, value: numberToString(v) };
  if (typeof v === 'boolean') return { ok: true, value: String(v) };
  if (v === null) return { ok: false, error: 'a value in the URL is null' };
  if (isUnknown(v)) return { ok: false, error: 'a value in the URL is not known' };
  return { ok: false, error: 'a value in the URL is not a string' };
}

function isUrlencodeCall(part: TemplatePart): boolean {
  return part.kind === 'TemplateInterpolation' && part.expr.kind === 'FunctionCall' && part.expr.name === 'urlencode';
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

/** Whether an expression (or template part) reads `inputs` anywhere in it. */
function readsInputs(node: unknown): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    if (n === null || typeof n !== 'object') continue;
    const kind = (n as { kind?: unknown }).kind;
    if (kind === 'ScopeTraversal' && (n as { root?: unknown }).root === 'inputs') return true;
    for (const [key, child] of Object.entries(n)) if (key !== 'range' && typeof child === 'object') stack.push(child);
  }
  return false;
}
