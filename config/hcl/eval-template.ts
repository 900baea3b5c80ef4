// Template evaluation: literal text, `${}` interpolations converted to strings, and the %{if} and
// %{for} directives. A template that is exactly one interpolation yields that value unchanged
// (HCL's TemplateWrapExpr); any Unknown part makes the whole string Unknown.

import type { TemplateExpr, TemplatePart } from './ast.js';
import { CODES } from './codes.js';
import { sortedKeys, toBoolValue, toStringValue, typeName } from './convert.js';
import { report, withLocals, type Env } from './eval-env.js';
import { nfc } from './nfc.js';
import { isObjectValue, isUnknown, unknown, type Value } from './value.js';

/** True when the template is `"${expr}"` alone: its value is the expression's own value. */
export function isPassthrough(t: TemplateExpr): boolean {
  return t.parts.length === 1 && t.parts[0]!.kind === 'TemplateInterpolation';
}

export function evalTemplate(t: TemplateExpr, env: Env): Value {
  if (isPassthrough(t)) {
    const only = t.parts[0]!;
    if (only.kind === 'TemplateInterpolation') return env.evalExpr(only.expr, env);
  }
  const out = { text: '', unknown: false };
  renderParts(t.parts, env, out);
  // Normalised as a whole: NFC of a concatenation is not the concatenation of NFC parts.
  return out.unknown ? unknown : nfc(out.text);
}

interface Output {
  text: string;
  unknown: boolean;
}

function renderParts(parts: TemplatePart[], env: Env, out: Output): void {
  for (const part of parts) {
    switch (part.kind) {
      case 'TemplateLiteral':
        out.text += part.value;
        break;
      case 'TemplateInterpolation': {
        const v = env.evalExpr(part.expr, env);
        if (isUnknown(v)) {
          out.unknown = true;
          break;
        }
        if (v === null) {
          report(env, part.expr.range, CODES.invalidTemplateValue, 'Invalid template interpolation value: The expression result is null. Cannot include a null value in a string template.', 'Use a conditional or coalesce() to supply a default, e.g. ${coalesce(x, "")}.');
          break;
        }
        const s = toStringValue(v);
        if (!s.ok) {
          report(env, part.expr.range, CODES.invalidTemplateValue, `Invalid template interpolation value: Cannot include the given value in a string template: string required, but have ${typeName(v)}.`, 'Convert it first, e.g. with join(", ", list) or jsonencode(value).');
          break;
        }
        out.text += s.value;
        break;
      }
      case 'TemplateIf': {
        const c = env.evalExpr(part.condition, env);
        if (isUnknown(c)) {
          // Still evaluate both branches so their errors surface.
          renderParts(part.then, env, { text: '', unknown: false });
          if (part.else) renderParts(part.else, env, { text: '', unknown: false });
          out.unknown = true;
          break;
        }
        if (c === null) {
          report(env, part.condition.range, CODES.invalidCondition, 'Null condition: The condition value is null. Conditions must either be true or false.', 'Make sure the condition is a bool.');
          break;
        }
        const b = toBoolValue(c);
        if (!b.ok) {
          report(env, part.condition.range, CODES.invalidCondition, `Incorrect condition type: The condition expression must be of type bool, but have ${typeName(c)}.`, 'Use a comparison such as x != "" to produce a bool.');
          break;
        }
        if (b.value) renderParts(part.then, env, out);
        else if (part.else) renderParts(part.else, env, out);
        break;
      }
      case 'TemplateFor': {
        const coll = env.evalExpr(part.collection, env);
        if (isUnknown(coll)) {
          out.unknown = true;
          break;
        }
        if (coll === null) {
          report(env, part.collection.range, CODES.invalidForExpression, 'Iteration over null value: A null value cannot be used as the collection in a \'for\' directive.', 'Supply a list or object, e.g. with coalesce(x, []).');
          break;
        }
        const vars: Record<string, Value> = {};
        if (Array.isArray(coll)) {
          coll.forEach((item, i) => {
            if (part.keyVar !== undefined) vars[part.keyVar] = i;
            vars[part.valueVar] = item;
            renderParts(part.body, withLocals(env, vars), out);
          });
        } else if (isObjectValue(coll)) {
          for (const k of sortedKeys(coll)) {
            if (part.keyVar !== undefined) vars[part.keyVar] = k;
            vars[part.valueVar] = coll[k]!;
            renderParts(part.body, withLocals(env, vars), out);
          }
        } else {
          report(env, part.collection.range, CODES.invalidForExpression, `Iteration over non-iterable value: A value of type ${typeName(coll)} cannot be used as the collection in a 'for' directive.`, 'Iterate over a list or an object.');
        }
        break;
      }
    }
  }
}
