// Values computed from a secret are secret, as Terraform marks values derived from a sensitive one:
// `upper(vars.token)`, `trimspace(vars.key)`, `"Bearer ${vars.t}"` are not the secret's text, so a
// redactor that only knows the secret would let them through. This finds, in the value of an
// expression, the strings that were computed from a secret variable: per item under an object or
// tuple constructor (`{ Accept = "json", X-Key = upper(vars.k) }` marks only the key's value), and
// the whole value of any other expression that reads one (a conditional, a function call, a template).

import type { Expression } from './hcl/ast.js';

export interface DerivedSecret {
  /** The secret variable it was computed from, as placeholders name it: `vars.token`. */
  name: string;
  value: string;
}

/** The strings of `value` (the evaluated `expr`) computed from one of `secretVars` (variable names). */
export function secretDerivedStrings(expr: Expression, value: unknown, secretVars: ReadonlySet<string>): DerivedSecret[] {
  if (secretVars.size === 0) return [];
  const out: DerivedSecret[] = [];
  walk(expr, value, secretVars, out);
  return out;
}

function walk(expr: Expression, value: unknown, secretVars: ReadonlySet<string>, out: DerivedSecret[]): void {
  if (expr.kind === 'Tuple' && Array.isArray(value) && value.length === expr.items.length) {
    expr.items.forEach((item, i) => walk(item, value[i], secretVars, out));
    return;
  }
  if (expr.kind === 'Object' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const item of expr.items) {
      const key = staticKey(item.key, item.keyIsIdentifier);
      const secret = readSecret(item.value, secretVars) ?? readSecret(item.key, secretVars);
      if (key === undefined || readSecret(item.key, secretVars) !== undefined) {
        // A computed key: which entry it made is not known, so every string of the object counts.
        if (secret !== undefined) strings(value, secret, out);
        continue;
      }
      if (key in record) walk(item.value, record[key], secretVars, out);
    }
    return;
  }
  const secret = readSecret(expr, secretVars);
  if (secret !== undefined) strings(value, secret, out);
}

function staticKey(key: Expression, identifier: boolean): string | undefined {
  if (identifier && key.kind === 'ScopeTraversal' && key.steps.length === 0) return key.root;
  if (key.kind === 'Template' && key.parts.every((p) => p.kind === 'TemplateLiteral')) return key.parts.map((p) => (p.kind === 'TemplateLiteral' ? p.value : '')).join('');
  if (key.kind === 'Literal') return String((key as { value: unknown }).value);
  return undefined;
}

function strings(value: unknown, name: string, out: DerivedSecret[]): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push({ name, value: v });
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) stack.push(k, x);
  }
}

/** `vars.<name>` of the first secret variable the expression reads, or undefined. */
function readSecret(node: unknown, secretVars: ReadonlySet<string>): string | undefined {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    if (n === null || typeof n !== 'object') continue;
    const t = n as { kind?: unknown; root?: unknown; steps?: { kind: string; name?: string; key?: { kind: string; value?: unknown } }[] };
    if (t.kind === 'ScopeTraversal' && t.root === 'vars') {
      const step = t.steps?.[0];
      const name = step?.kind === 'GetAttr' ? step.name : step?.key?.kind === 'Literal' ? String(step.key.value) : undefined;
      if (name !== undefined && secretVars.has(name)) return `vars.${name}`;
    }
    for (const [key, child] of Object.entries(n)) if (key !== 'range' && typeof child === 'object') stack.push(child);
  }
  return undefined;
}
