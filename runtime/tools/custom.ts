// Custom `tool` blocks: a builtin with some of its fields computed from the tool's own inputs and
// the variables. At call time each field expression is evaluated with only `inputs` and `vars` in
// scope, and the builtin runs with the result (checked against the builtin's schema first, so a bad
// field is an error result). The evaluated fields go to the builtin only: what callers record (the
// ledger) is the model's input, so a secret variable used in a header never reaches the store; a
// value computed from a secret (the evaluator's marks, config/hcl/marks.ts) is masked in the result.

import type { CustomTool, VariableValue } from '../../config/graph.js';
import type { Diagnostic } from '../../config/hcl/diagnostic.js';
import { evaluate, stdlibFunctions } from '../../config/hcl/index.js';
import { isUnknown, type ObjectValue, type SensitiveString, type Value } from '../../config/hcl/value.js';
import { builtinToolSpecs, type BuiltinOptions } from './builtins/index.js';
import { MIN_SECRET_LENGTH } from '../../core/secrets.js';
import { createSecretRedactor } from '../../store/redact.js';
import { evaluateUrlTemplate } from './customUrl.js';
import { fieldsToJsonSchema } from './fieldSchema.js';
import { invalidInputResult, validateToolInput } from './inputValidation.js';
import type { ToolContext, ToolResult, ToolSpec } from './types.js';
import { apiNameOf, textResult } from './types.js';

/** `variables` are the graph's (`graph.variables`); those without a value are left out of `vars`. */
export function customToolSpec(tool: CustomTool, builtinOptions: BuiltinOptions = {}, variables: readonly VariableValue[] = []): ToolSpec {
  const apiName = apiNameOf(tool.ref);
  const vars = varsObject(variables);
  const secretVars = new Set(variables.filter((v) => v.secret && v.value !== undefined).map((v) => v.name));
  const inputSchema = fieldsToJsonSchema(tool.inputs);
  const implemented = builtinToolSpecs(builtinOptions).find((b) => b.ref === tool.implements);
  return {
    ref: tool.ref,
    apiName,
    description: tool.description || implemented?.description || `Custom tool ${tool.name}.`,
    inputSchema,
    group: 'tools',
    source: 'custom',
    idempotent: tool.idempotent,
    async execute(input: unknown, ctx: ToolContext): Promise<ToolResult> {
      const checked = validateToolInput(inputSchema, input ?? {});
      if (!checked.ok) return invalidInputResult(apiName, checked.errors);
      // The loader only accepts builtins it knows; reaching this means graph and catalog disagree.
      if (!implemented) return textResult(`${apiName}: implemented tool ${tool.implements} is not available`, true);

      const fields = evaluateFields(tool, checked.value as Record<string, unknown>, vars, secretVars);
      if (!fields.ok) return textResult(`${apiName}: could not compute the fields of ${tool.implements}:\n${fields.errors.join('\n')}`, true);
      const forBuiltin = validateToolInput(implemented.inputSchema, fields.value);
      if (!forBuiltin.ok) {
        return textResult(
          `${apiName}: the fields computed from your inputs are not valid for ${tool.implements}:\n${forBuiltin.errors.map((e) => `- ${e}`).join('\n')}`,
          true,
        );
      }
      const result = await implemented.execute(forBuiltin.value, ctx);
      return maskDerived(result, withTheirSecrets(fields.derived, variables));
    },
  };
}

type Fields = { ok: true; value: Record<string, unknown>; derived: SensitiveString[] } | { ok: false; errors: string[] };

/** Evaluates every field with `inputs` and `vars` in scope; absent optional inputs read as null. */
export function evaluateFields(tool: CustomTool, input: Record<string, unknown>, vars: ObjectValue = {}, secretVars: ReadonlySet<string> = new Set()): Fields {
  const inputs: ObjectValue = {};
  for (const field of tool.inputs) inputs[field.name] = toValue(input[field.name]);
  const ctx = { variables: { inputs, vars }, functions: stdlibFunctions, ...(secretVars.size > 0 ? { sensitive: { vars: secretVars } } : {}) };
  const value: Record<string, unknown> = {};
  const errors: string[] = [];
  const derived: SensitiveString[] = [];
  for (const [name, expr] of Object.entries(tool.fields)) {
    const url = name === 'url' ? evaluateUrlTemplate(expr, ctx, derived) : undefined;
    if (url !== undefined) {
      if (url.ok) value[name] = url.value;
      else errors.push(`- url: ${url.error}`);
      continue;
    }
    const result = evaluate(expr, ctx);
    if (result.sensitive !== undefined) derived.push(...result.sensitive);
    const problems = result.diagnostics.filter((d: Diagnostic) => d.severity === 'error');
    if (problems.length > 0) {
      for (const d of problems) errors.push(`- ${name} (${d.file}:${d.line}:${d.column}): ${d.message}`);
      continue;
    }
    const json = toJson(result.value);
    if (!json.ok) errors.push(`- ${name}: ${json.error}`);
    // A null field is an unset field (HCL semantics), so optional inputs can leave it out.
    else if (json.value !== null) value[name] = json.value;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value, derived };
}

/**
 * The result with every secret the call used, and every value computed from one (a header
 * `upper(vars.key)`, a URL holding one), replaced by the secret's placeholder in all its forms
 * (URL-encoded, base64, JSON): a server that echoes a header back, or an error that names the URL,
 * must not put it in the store, nor before the model (which reads stored results with the run's
 * secrets put back).
 */
/** The derived values and the secrets they came from: what the call sent, the result must not hold. */
function withTheirSecrets(derived: readonly SensitiveString[], variables: readonly VariableValue[]): SensitiveString[] {
  const names = new Set(derived.map((d) => d.name));
  const own = variables.filter((v) => names.has(`vars.${v.name}`) && v.value !== undefined).map((v) => ({ name: `vars.${v.name}`, value: String(v.value) }));
  return [...derived, ...own];
}

function maskDerived(result: ToolResult, derived: readonly SensitiveString[]): ToolResult {
  const usable = derived.filter((d) => d.value.length >= MIN_SECRET_LENGTH);
  if (usable.length === 0) return result;
  const mask = createSecretRedactor(usable).mask;
  return { ...result, content: result.content.map((c) => (c.type === 'text' ? { ...c, text: mask(c.text) } : c)) };
}

function varsObject(variables: readonly VariableValue[]): ObjectValue {
  const vars: ObjectValue = {};
  for (const v of variables) if (v.value !== undefined) vars[v.name] = v.value;
  return vars;
}

function toValue(v: unknown): Value {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toValue);
  if (typeof v === 'object') {
    const out: ObjectValue = {};
    for (const [k, x] of Object.entries(v)) out[k] = toValue(x);
    return out;
  }
  return null;
}

function toJson(v: Value): { ok: true; value: unknown } | { ok: false; error: string } {
  if (isUnknown(v)) return { ok: false, error: 'the value is not known' };
  if (Array.isArray(v)) {
    const items: unknown[] = [];
    for (const x of v as Value[]) {
      const r = toJson(x);
      if (!r.ok) return r;
      items.push(r.value);
    }
    return { ok: true, value: items };
  }
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as ObjectValue)) {
      const r = toJson(x);
      if (!r.ok) return r;
      out[k] = r.value;
    }
    return { ok: true, value: out };
  }
  return { ok: true, value: v };
}
