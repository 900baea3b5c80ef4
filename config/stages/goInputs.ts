// Go Squadron's forms of mission inputs (docs/concepts/migrate-from-go.md): the shorthand
// `inputs = { city = string("City", true), n = number("N", { default = 3 }) }` and protected inputs
// (`protected = true` with a `value`). A protected input is never given to the model nor asked of the
// user, as in Go: it is left out of the mission's inputs, with a warning naming where its value belongs.

import type { Attribute, Expression } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import { isUnknown, type Value } from '../hcl/value.js';
import type { InputType, MissionInput } from '../graph.js';
import type { LoadContext, Scope } from '../scope.js';
import { evaluateValue, objectKeyName, toBoolValue, toStringValue } from '../values.js';

const TYPES: Readonly<Record<string, InputType>> = { string: 'string', number: 'number', integer: 'integer', bool: 'bool', list: 'list', map: 'map', object: 'object' };

/** The warning for a protected input, which Squadron keeps out of the model's reach (as Go does). */
export function protectedInputWarning(name: string, where: Expression | Attribute, ctx: LoadContext): void {
  const range = 'nameRange' in where ? where.nameRange : where.range;
  ctx.diags.push(
    diagnosticAt(range, 'warning', 'GO005', `protected input "${name}" is left out of the mission's inputs (as in Go Squadron, the model never sees it)`, 'hold a secret in a variable with secret = true and use vars.<name> in a tool field or an mcp header'),
  );
}

/** `inputs = { … }`: each entry a helper call whose name is the input's type. */
export function readInputsShorthand(attr: Attribute, scope: Scope, ctx: LoadContext, convert: (v: Value, t: InputType) => Value | undefined): MissionInput[] {
  const expr = attr.expr;
  if (expr.kind !== 'Object') {
    ctx.diags.push(diagnosticAt(expr.range, 'error', 'SCH017', 'inputs must be an object of input schemas', 'write inputs = { city = string("the city", true) }'));
    return [];
  }
  const out: MissionInput[] = [];
  for (const item of expr.items) {
    const name = objectKeyName(item.key);
    const call = item.value;
    if (name === undefined || call.kind !== 'FunctionCall' || TYPES[call.name] === undefined) {
      ctx.diags.push(diagnosticAt(item.value.range, 'error', 'SCH017', `input "${name ?? '?'}": expected string(), number(), integer(), bool(), list(), map() or object()`, 'e.g. string("what it is", true)'));
      continue;
    }
    const type = TYPES[call.name]!;
    // list/map/object take their element type or properties first.
    const rest = type === 'list' || type === 'map' || type === 'object' ? call.args.slice(1) : call.args;
    const input: MissionInput = { name, type, required: true };
    const [descExpr, optExpr] = rest;
    if (descExpr !== undefined) {
      const v = evaluateValue(descExpr, scope, ctx.diags);
      const d = v === undefined || isUnknown(v) ? undefined : toStringValue(v, descExpr.range, ctx.diags);
      if (d !== undefined && d !== '') input.description = d;
    }
    let isProtected = false;
    if (optExpr !== undefined && optExpr.kind === 'Object') {
      for (const opt of optExpr.items) {
        const key = objectKeyName(opt.key);
        const v = evaluateValue(opt.value, scope, ctx.diags);
        if (v === undefined || isUnknown(v)) continue;
        if (key === 'default') {
          const d = convert(v, type);
          if (d === undefined) ctx.diags.push(diagnosticAt(opt.value.range, 'error', 'SCH007', `the default of input "${name}" does not fit its type ${type}`));
          else input.default = d;
        } else if (key === 'protected') isProtected = toBoolValue(v, opt.value.range, ctx.diags) === true;
        else if (key !== 'required') ctx.diags.push(diagnosticAt(opt.key.range, 'error', 'SCH017', `unknown option "${key ?? '?'}" in ${call.name}()`, 'the options are required, default and protected'));
      }
    }
    // Go: an input is required exactly when it has no default (the `required` flag is not read).
    input.required = input.default === undefined;
    if (isProtected) {
      protectedInputWarning(name, item.key, ctx);
      continue;
    }
    out.push(input);
  }
  return out;
}
