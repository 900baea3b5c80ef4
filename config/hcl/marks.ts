// Sensitivity marks, as Terraform marks values derived from a sensitive one: an expression that reads
// a marked value (`vars.token` of a secret variable) yields a marked value, through functions,
// operators, `for` and splats, so `upper(vars.s)`, `trimspace(vars.key)` or
// `base64encode("u:${vars.p}")` are known to be secret. Every marked string an expression computes
// is reported with the name it came from, for the redactor to hide it wherever the secret is hidden.
// Constructors are not marked as a whole: a tuple, an object or a template is made of its parts, and
// its marked parts are reported themselves (`{ Accept = "json", X-Key = vars.k }` marks the key's
// value only; `"Bearer ${vars.t}"` leaves "Bearer " readable). A condition's mark does not reach the
// value it chooses (one bit, and `vars.s != "" ? "on" : "off"` must not hide every "on").

import type { Expression, ScopeTraversalExpr } from './ast.js';
import { isUnknown, type SensitiveString, type Value } from './value.js';

/** The marks of one evaluation: which secret the value being computed read, and what was found. */
export interface MarkState {
  /** root → names under it that are secret (`vars` → {token}). */
  readonly sensitive: Readonly<Record<string, ReadonlySet<string>>>;
  /** The first secret the expression being evaluated read (`vars.token`), if any. */
  current: string | undefined;
  readonly found: SensitiveString[];
  readonly seen: Set<string>;
}

export function markState(sensitive: Readonly<Record<string, ReadonlySet<string>>> | undefined): MarkState | undefined {
  if (sensitive === undefined) return undefined;
  for (const names of Object.values(sensitive)) if (names.size > 0) return { sensitive, current: undefined, found: [], seen: new Set() };
  return undefined;
}

/** `vars.token` when the traversal reads a secret (the whole `vars`, or `vars[expr]`: its first secret). */
export function traversalMark(marks: MarkState, e: ScopeTraversalExpr): string | undefined {
  const names = marks.sensitive[e.root];
  if (names === undefined || names.size === 0) return undefined;
  const step = e.steps[0];
  const name = step?.kind === 'GetAttr' ? step.name : step?.kind === 'Index' && step.key.kind === 'Literal' ? String(step.key.value) : undefined;
  if (name !== undefined) return names.has(name) ? `${e.root}.${name}` : undefined;
  // The whole object, or a key known only now: whatever it reads may be any of them.
  return `${e.root}.${[...names][0]!}`;
}

const CONSTRUCTORS: ReadonlySet<Expression['kind']> = new Set(['Tuple', 'Object', 'Template', 'Parentheses']);

/** Reports the strings of `value`, computed by `e` from the secret `name`. */
export function recordMarked(marks: MarkState, e: Expression, value: Value, name: string): void {
  if (CONSTRUCTORS.has(e.kind)) return;
  // `vars` itself (or `vars[k]` of an unknown k) holds the plain variables too: what is computed
  // from it is marked, its own values are not all secrets.
  if (e.kind === 'ScopeTraversal' && typeof value !== 'string') return;
  const stack: Value[] = [value];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (typeof v === 'string') {
      if (!marks.seen.has(v)) {
        marks.seen.add(v);
        marks.found.push({ name, value: v });
      }
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object' && !isUnknown(v)) for (const [k, x] of Object.entries(v)) stack.push(k, x);
  }
}
