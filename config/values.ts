// Evaluating attribute values at load time. Before an expression is evaluated, every name it reads
// is checked against the scope (namespace visible here? variable declared? has a value?), so the
// diagnostics point at the exact reference and say what to do; then the HCL evaluator runs and the
// result is converted to the type the attribute expects (HCL's conversions: "5" is a number).

import { isInvalidExpr, type Attribute, type Expression, type ScopeTraversalExpr } from './hcl/ast.js';
import { freeTraversals } from './traversals.js';
import { diagnosticAt, type Diagnostic, type Range } from './hcl/diagnostic.js';
import { isObjectValue, isUnknown, unknown, type ObjectValue, type Value } from './hcl/value.js';
import { toBoolValue as convertToBool, toNumberValue as convertToNumber, toStringValue as convertToString, typeName } from './hcl/convert.js';
import { evaluate } from './hcl/evaluate.js';
import { literalText } from './hcl/source.js';
import { isNamespace, NAMESPACES, visibleIn, whereVisible, type Scope } from './scope.js';
import { suggestionHint } from './suggest.js';

/** Which names a value may read, and how to word a reference to anything else. */
export interface ValueRules {
  /** `vars` (load-time values, objectives) and/or `inputs` (objectives, tool fields). */
  roots: ReadonlyArray<'vars' | 'inputs'>;
  /** Declared input names when `inputs` is readable (their values are unknown at load time). */
  inputs?: readonly string[];
  /** Code and wording for references to other namespaces. */
  otherRef?: { code: string; message: (ref: string) => string; hint?: string };
  /**
   * `item` and `item_index`: readable (a parallel iterator's objective; unknown at load time), or the
   * code and wording for reading them where there is no item. Elsewhere they are unknown names.
   */
  item?: 'readable' | { code: string; message: (name: string) => string; hint: string };
}

/** The names an iterated task's objective reads its item by. */
export const ITEM_ROOTS: readonly string[] = ['item', 'item_index'];

const LOAD_TIME: ValueRules = { roots: ['vars'] };

function firstStepName(t: ScopeTraversalExpr): { name: string; range: Range } | undefined {
  const s = t.steps[0];
  if (s === undefined) return undefined;
  if (s.kind === 'GetAttr') return { name: s.name, range: s.range };
  if (s.key.kind === 'Literal' && typeof s.key.value === 'string') return { name: s.key.value, range: s.range };
  const name = literalText(s.key);
  return name === undefined ? undefined : { name, range: s.range };
}

export function traversalText(t: ScopeTraversalExpr): string {
  return [t.root, ...t.steps.map((s) => (s.kind === 'GetAttr' ? s.name : '[…]'))].join('.').replace(/\.\[/g, '[');
}

/** Checks every name an expression reads; true when it may be evaluated. */
export function checkValueRefs(expr: Expression, scope: Scope, diags: Diagnostic[], rules: ValueRules = LOAD_TIME): boolean {
  let ok = true;
  const fail = (d: Diagnostic): void => {
    diags.push(d);
    ok = false;
  };
  for (const t of freeTraversals(expr)) {
    const root = t.root;
    if (ITEM_ROOTS.includes(root) && rules.item !== undefined) {
      if (rules.item !== 'readable') fail(diagnosticAt(t.range, 'error', rules.item.code, rules.item.message(root), rules.item.hint));
      else if (root === 'item_index' && t.steps.length > 0) fail(diagnosticAt(t.range, 'error', 'EVAL002', 'item_index is a number: it has no attributes or elements'));
      continue;
    }
    if (!isNamespace(root)) {
      const hint =
        root === 'plugins'
          ? 'Squadron has no plugins: run the tool as an MCP server (mcp "name" { … }) and use mcp.<name>.<tool>'
          : root === 'var' || root === 'variables'
            ? 'variables are read as vars.<name>'
            : suggestionHint(root, NAMESPACES);
      fail(diagnosticAt(t.rootRange, 'error', 'REF001', `unknown name "${root}"`, hint));
      continue;
    }
    const readable = (rules.roots as readonly string[]).includes(root);
    // `inputs` readable by rule (tool fields) is visible even where the stage table says otherwise.
    const visible = readable && root === 'inputs' ? true : visibleIn(scope, root);
    if (!visible) {
      fail(diagnosticAt(t.range, 'error', 'REF002', `"${root}" cannot be referenced in ${scope.where}`, `${root} can be referenced ${whereVisible(root)}`));
      continue;
    }
    if (!readable) {
      if (rules.otherRef !== undefined) {
        fail(diagnosticAt(t.range, 'error', rules.otherRef.code, rules.otherRef.message(traversalText(t)), rules.otherRef.hint));
      } else {
        fail(
          diagnosticAt(
            t.range,
            'error',
            'REF005',
            `${traversalText(t)} is a reference, not a value: it cannot be used inside an expression here`,
            `only vars.<name> can be read inside values in ${scope.where}`,
          ),
        );
      }
      continue;
    }
    const step = firstStepName(t);
    if (step === undefined) {
      fail(diagnosticAt(t.range, 'error', 'REF006', `write ${root}.<name> to read one ${root === 'vars' ? 'variable' : 'input'}`));
      continue;
    }
    if (root === 'vars') {
      const declared = scope.symbols.vars.get(step.name);
      if (declared === undefined) {
        const known = [...scope.symbols.vars.keys()];
        const hint = suggestionHint(step.name, known, (c) => `vars.${c}`) ?? `declare it: variable "${step.name}" { }, or store it in the vault: squadron vars set ${step.name}`;
        fail(diagnosticAt(t.range, 'error', 'REF003', `unknown variable "${step.name}"`, hint));
      } else if (declared.variable.value === undefined && scope.symbols.unsetVariables === 'unknown') {
        // Reported once per variable when loading ends (loadConfig); the value is unknown here.
        const uses = scope.symbols.unsetUses.get(step.name) ?? [];
        uses.push(t.range);
        scope.symbols.unsetUses.set(step.name, uses);
      } else if (declared.variable.value === undefined) {
        fail(
          diagnosticAt(
            t.range,
            'error',
            'REF007',
            `variable "${step.name}" has no value: pass --var ${step.name}=… or set SQUADRON_VAR_${step.name}`,
            declared.variable.secret ? 'secret variables never have a default; supply the value when you run' : 'or give the variable a default',
          ),
        );
      }
    } else {
      const inputs = rules.inputs ?? [];
      if (!inputs.includes(step.name)) {
        const hint = suggestionHint(step.name, inputs, (c) => `inputs.${c}`) ?? (inputs.length === 0 ? 'no inputs are declared here' : undefined);
        fail(diagnosticAt(t.range, 'error', 'REF003', `unknown input "${step.name}"`, hint));
      }
    }
  }
  return ok;
}

/** How often each variable without a value has been used so far (see unsetVariablesSince). */
export function unsetUseCounts(scope: Pick<Scope, 'symbols'>): Map<string, number> {
  return new Map([...scope.symbols.unsetUses].map(([name, uses]) => [name, uses.length]));
}

/** The variables without a value used since `before` (an unsetUseCounts snapshot). */
export function unsetVariablesSince(scope: Pick<Scope, 'symbols'>, before: ReadonlyMap<string, number>): string[] {
  return [...scope.symbols.unsetUses].filter(([name, uses]) => uses.length > (before.get(name) ?? 0)).map(([name]) => name);
}

/** The `vars` object as expressions see it: variables that have a value (and, when allowed, unknown for the others). */
export function varsObject(scope: Scope): ObjectValue {
  const vars: ObjectValue = {};
  const withUnknowns = scope.symbols.unsetVariables === 'unknown';
  for (const [name, d] of scope.symbols.vars) {
    if (d.variable.value !== undefined) vars[name] = d.variable.value;
    else if (withUnknowns) vars[name] = unknown;
  }
  return vars;
}

/** Where the reads of secrets stood before a value was read (see warnModelReadsSecret). */
export interface SecretReads {
  sensitive: number;
  unset: ReadonlyMap<string, number>;
}

export function secretReads(scope: Scope): SecretReads {
  return { sensitive: scope.symbols.sensitive.length, unset: scope.symbols.unsetVariables === 'unknown' ? unsetUseCounts(scope) : new Map() };
}

/**
 * REF017 (a warning) when the value read since `before` read a secret (with its value, or without
 * one where validate and plan leave it unknown): `what` is text the model is sent (an objective, a
 * personality), so the model's provider receives the secret even though the database, the logs and
 * the terminal show its placeholder.
 */
export function warnModelReadsSecret(attr: Attribute, scope: Scope, before: SecretReads, diags: Diagnostic[], what: string): void {
  const names = new Set(scope.symbols.sensitive.slice(before.sensitive).map((s) => s.name));
  if (scope.symbols.unsetVariables === 'unknown') {
    for (const name of unsetVariablesSince(scope, before.unset)) if (scope.symbols.vars.get(name)?.variable.secret === true) names.add(`vars.${name}`);
  }
  if (names.size === 0) return;
  diags.push(
    diagnosticAt(
      attr.expr.range,
      'warning',
      'REF017',
      `${what} in ${scope.where} reads ${[...names].sort().join(', ')}: the model is sent its value (it is redacted from everything stored and printed)`,
      'a secret reaches a service through a tool, where the model never sees it: a custom tool\'s headers or url, an MCP server\'s env or headers',
    ),
  );
}

/** The names of the secret variables with a value: what the evaluator marks (undefined: none). */
function secretVariables(scope: Scope): Set<string> | undefined {
  let names: Set<string> | undefined;
  for (const [name, d] of scope.symbols.vars) if (d.variable.secret && d.variable.value !== undefined) (names ??= new Set()).add(name);
  return names;
}

/**
 * Checks and evaluates an expression. Returns undefined when a problem was reported (or the value
 * is unknown at load time, which callers that expect a known value treat as already reported).
 */
export function evaluateValue(expr: Expression, scope: Scope, diags: Diagnostic[], rules: ValueRules = LOAD_TIME): Value | undefined {
  // A value that failed to parse: its syntax error is already reported.
  if (isInvalidExpr(expr)) return undefined;
  // Most values are plain literals: no names to check, nothing to evaluate.
  if (expr.kind === 'Literal') return expr.value;
  const text = literalText(expr);
  if (text !== undefined) return text;
  if (!checkValueRefs(expr, scope, diags, rules)) return undefined;
  const variables: Record<string, Value> = {};
  if (rules.roots.includes('vars')) variables['vars'] = varsObject(scope);
  if (rules.roots.includes('inputs')) {
    const inputs: ObjectValue = {};
    for (const name of rules.inputs ?? []) inputs[name] = unknown;
    variables['inputs'] = inputs;
  }
  if (rules.item === 'readable') for (const name of ITEM_ROOTS) variables[name] = unknown;
  const sensitive = rules.roots.includes('vars') ? secretVariables(scope) : undefined;
  const result = evaluate(expr, sensitive === undefined ? { variables, functions: scope.functions } : { variables, functions: scope.functions, sensitive: { vars: sensitive } });
  if (result.sensitive !== undefined && result.sensitive.length > 0) scope.symbols.sensitive.push(...result.sensitive);
  diags.push(...result.diagnostics);
  if (result.diagnostics.some((d) => d.severity === 'error')) return undefined;
  return result.value;
}

/** How a value is named in "expected …, got …": a string shows itself, so "0x4" reads as such. */
function describeValue(v: Value): string {
  if (typeof v !== 'string') return typeName(v);
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
}

function wrongType(range: Range, expected: string, v: Value, diags: Diagnostic[], hint?: string): undefined {
  diags.push(diagnosticAt(range, 'error', 'SCH007', `expected ${expected}, got ${describeValue(v)}`, hint));
  return undefined;
}

// HCL's conversions (config/hcl/convert.ts, the evaluator's own), reported at `range`. Null and
// unknown give undefined without a report: unknown was reported where it arose, and null means
// "not set".

export function toStringValue(v: Value, range: Range, diags: Diagnostic[]): string | undefined {
  if (v === null || isUnknown(v)) return undefined;
  const c = convertToString(v);
  return c.ok ? c.value : wrongType(range, 'a string', v, diags);
}

export function toNumberValue(v: Value, range: Range, diags: Diagnostic[]): number | undefined {
  if (v === null || isUnknown(v)) return undefined;
  const c = convertToNumber(v);
  return c.ok ? c.value : wrongType(range, 'a number', v, diags);
}

export function toBoolValue(v: Value, range: Range, diags: Diagnostic[]): boolean | undefined {
  if (v === null || isUnknown(v)) return undefined;
  const c = convertToBool(v);
  return c.ok ? c.value : wrongType(range, 'true or false', v, diags);
}

// Attribute readers: evaluate with `vars` in scope, convert, report at the expression.

export function readString(attr: Attribute | undefined, scope: Scope, diags: Diagnostic[]): string | undefined {
  if (attr === undefined) return undefined;
  const v = evaluateValue(attr.expr, scope, diags);
  return v === undefined ? undefined : toStringValue(v, attr.expr.range, diags);
}

/**
 * A free-text value (a description, a personality, instructions): read as readString, except that
 * when it is unknown only because variables without a value feed it (validate, plan, tools; see
 * LoadOptions.unsetVariables), it reads as `<vars.name>`, so the block it belongs to is still loaded
 * and checked instead of vanishing. Never for values that are checked or used (urls, commands, keys).
 */
export function readText(attr: Attribute | undefined, scope: Scope, diags: Diagnostic[]): string | undefined {
  if (attr === undefined || scope.symbols.unsetVariables === 'error') return readString(attr, scope, diags);
  const before = unsetUseCounts(scope);
  const v = evaluateValue(attr.expr, scope, diags);
  if (v === undefined) return undefined;
  if (isUnknown(v)) {
    const needs = unsetVariablesSince(scope, before);
    return needs.length > 0 ? needs.map((n) => `<vars.${n}>`).join(' ') : undefined;
  }
  return toStringValue(v, attr.expr.range, diags);
}

export function readNumber(attr: Attribute | undefined, scope: Scope, diags: Diagnostic[]): number | undefined {
  if (attr === undefined) return undefined;
  const v = evaluateValue(attr.expr, scope, diags);
  return v === undefined ? undefined : toNumberValue(v, attr.expr.range, diags);
}

/** A whole number ≥ min (reported at the expression otherwise). */
export function readInteger(attr: Attribute | undefined, scope: Scope, diags: Diagnostic[], min: number): number | undefined {
  const n = readNumber(attr, scope, diags);
  if (n === undefined || attr === undefined) return undefined;
  if (!Number.isInteger(n)) {
    diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH013', `${attr.name} must be a whole number, got ${n}`));
    return undefined;
  }
  if (n < min) {
    diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH013', `${attr.name} must be at least ${min}, got ${n}`));
    return undefined;
  }
  return n;
}

export function readBool(attr: Attribute | undefined, scope: Scope, diags: Diagnostic[]): boolean | undefined {
  if (attr === undefined) return undefined;
  const v = evaluateValue(attr.expr, scope, diags);
  return v === undefined ? undefined : toBoolValue(v, attr.expr.range, diags);
}

/** One of a fixed set of strings; the hint names the closest allowed value. */
export function readEnum<T extends string>(attr: Attribute | undefined, allowed: readonly T[], scope: Scope, diags: Diagnostic[]): T | undefined {
  const s = readString(attr, scope, diags);
  if (s === undefined || attr === undefined) return undefined;
  if ((allowed as readonly string[]).includes(s)) return s as T;
  diags.push(
    diagnosticAt(
      attr.expr.range,
      'error',
      'SCH010',
      `${attr.name} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}; got "${s}"`,
      suggestionHint(s, allowed, (c) => `"${c}"`),
    ),
  );
  return undefined;
}

/** A list of strings (e.g. `args`); each element is reported at its own position when possible. */
export function readStringList(attr: Attribute | undefined, scope: Scope, diags: Diagnostic[]): string[] | undefined {
  if (attr === undefined) return undefined;
  const v = evaluateValue(attr.expr, scope, diags);
  if (v === undefined || v === null || isUnknown(v)) return undefined;
  if (!Array.isArray(v)) return wrongType(attr.expr.range, 'a list of strings', v, diags);
  const items = attr.expr.kind === 'Tuple' ? attr.expr.items : [];
  const out: string[] = [];
  let ok = true;
  v.forEach((item, i) => {
    const s = toStringValue(item, items[i]?.range ?? attr.expr.range, diags);
    if (s === undefined) ok = false;
    else out.push(s);
  });
  return ok ? out : undefined;
}

/** A map of strings (e.g. `env`, `headers`, `aliases`). */
export function readStringMap(attr: Attribute | undefined, scope: Scope, diags: Diagnostic[]): Record<string, string> | undefined {
  if (attr === undefined) return undefined;
  const v = evaluateValue(attr.expr, scope, diags);
  if (v === undefined || v === null || isUnknown(v)) return undefined;
  if (!isObjectValue(v)) return wrongType(attr.expr.range, 'a map of strings', v, diags, `write ${attr.name} = { key = "value" }`);
  const out: Record<string, string> = {};
  let ok = true;
  for (const [k, item] of Object.entries(v)) {
    const itemRange = attr.expr.kind === 'Object' ? attr.expr.items.find((i) => objectKeyName(i.key) === k)?.value.range : undefined;
    const s = toStringValue(item, itemRange ?? attr.expr.range, diags);
    if (s === undefined) ok = false;
    else out[k] = s;
  }
  return ok ? out : undefined;
}

/** The literal name of an object key (`foo` or `"foo"`), if it is one. */
export function objectKeyName(key: Expression): string | undefined {
  if (key.kind === 'ScopeTraversal' && key.steps.length === 0) return key.root;
  return literalText(key);
}

/** Reports a URL that is not http(s); true when it is fine. */
export function checkHttpUrl(url: string, range: Range, diags: Diagnostic[]): boolean {
  let ok = false;
  try {
    const u = new URL(url);
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    ok = false;
  }
  if (!ok) diags.push(diagnosticAt(range, 'error', 'SCH010', `"${url}" is not an http:// or https:// URL`));
  return ok;
}
