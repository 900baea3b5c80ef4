// Stage 3a: custom `tool` blocks. A custom tool wraps an HTTP builtin: its fields (named after the
// builtin's input properties) are expressions over the tool's own `inputs` and the variables
// (`vars`, e.g. an API token for a header), checked now with the inputs unknown and evaluated at
// call time. Anything else in the block is an unknown attribute.

import { exactList } from '../exactList.js';
import type { Attribute, Block, Expression } from '../hcl/ast.js';
import { diagnosticAt, type Range } from '../hcl/diagnostic.js';
import { reparseBlock } from '../hcl/index.js';
import { builtinTool, builtinToolsIn, type BuiltinToolInfo } from '../builtinTools.js';
import type { CustomTool, FieldSchema, SourceLocation } from '../graph.js';
import { readFieldSchema } from '../fieldSchema.js';
import { asRef } from '../references.js';
import { blockHeader, decodeBody, type BlockSchema } from '../schema.js';
import { loadNamedBlocks } from './namedBlocks.js';
import { scopeFor, visibleIn, type LoadContext, type Scope } from '../scope.js';
import { evaluateValue, readBool, readText } from '../values.js';
import { typeName } from '../hcl/convert.js';
import { isObjectValue, isUnknown, type Value } from '../hcl/value.js';

const BASE: BlockSchema['attributes'] = { implements: { required: true }, description: {}, inputs: {}, idempotent: {}, approval: {} };
const HTTP_METHODS = builtinToolsIn('http').map((t) => t.ref);

export function loadCustomTools(blocks: readonly Block[], ctx: LoadContext): CustomTool[] {
  const tools = loadNamedBlocks(blocks, 'tool', ctx, (block, name) => loadCustomTool(block, name, ctx), { namespace: 'tools' });
  for (const t of tools) ctx.symbols.tools.set(t.name, t);
  return tools;
}

/** `implements = builtins.http.<method>`; anything else is REF010 (or a reference error). */
function resolveImplements(attr: Attribute, scope: Scope, ctx: LoadContext): BuiltinToolInfo | undefined {
  const p = asRef(attr.expr, 'builtins.http.get', ctx.diags);
  if (p === undefined) return undefined;
  const ref = p.text;
  const info = HTTP_METHODS.includes(ref) ? builtinTool(ref) : undefined;
  if (info !== undefined && visibleIn(scope, 'builtins')) return info;
  ctx.diags.push(
    diagnosticAt(attr.expr.range, 'error', 'REF010', `implements must be one of builtins.http.* (get, post, put, patch, delete); got ${ref}`, 'custom tools wrap an HTTP builtin; to use another tool, reference it directly in tools = [...]'),
  );
  return undefined;
}

function loadCustomTool(block: Block, name: string, ctx: LoadContext): CustomTool | undefined {
  const where = `tool "${name}"`;
  const scope = scopeFor(ctx, 'tool', 'a tool block');
  const ast = block.body; // a top-level block's body is parsed on each read: read it once
  const implementsAttr = ast.attributes.find((a) => a.name === 'implements');
  const base = implementsAttr === undefined ? undefined : resolveImplements(implementsAttr, scope, ctx);
  const properties = base === undefined ? undefined : Object.keys((base.inputSchema['properties'] ?? {}) as Record<string, unknown>);
  // Without a valid `implements` the allowed fields are unknown: accept every attribute rather than
  // report each one as unknown on top of the real mistake.
  const extra = properties ?? ast.attributes.map((a) => a.name);
  const body = decodeBody(ast, { attributes: BASE, blocks: { inputs: { labels: [], max: 1 } }, extraAttributes: extra }, { what: where, header: blockHeader(block) }, ctx.diags);
  const description = readText(body.attrs.get('description'), scope, ctx.diags);
  const idempotent = readBool(body.attrs.get('idempotent'), scope, ctx.diags);
  const approval = readBool(body.attrs.get('approval'), scope, ctx.diags);
  const inputs = readFieldSchema(body.attrs.get('inputs'), body.blocks.get('inputs'), scope, ctx.diags, `inputs of ${where}`) ?? [];
  if (base === undefined || properties === undefined) return undefined;

  const fields: string[] = [];
  const fieldScope: Scope = { ...scope, functions: ctx.runtimeFunctions };
  const inputNames = inputs.map((i) => i.name);
  for (const [attrName, attr] of body.attrs) {
    if (attrName in BASE) continue;
    fields.push(attrName);
    const v = evaluateValue(attr.expr, fieldScope, ctx.diags, {
      roots: ['inputs', 'vars'],
      inputs: inputNames,
      otherRef: {
        code: 'REF014',
        message: (ref) => `the field "${attrName}" of ${where} can only use inputs.<name> and vars.<name>; it references ${ref}`,
        hint: "fields are evaluated when the tool is called, with only the tool's inputs and the variables in scope",
      },
    });
    if (v !== undefined) checkFieldType(base, attrName, v, attr, ctx);
  }
  const required = (base.inputSchema['required'] ?? []) as string[];
  for (const field of required) {
    if (!fields.includes(field)) {
      ctx.diags.push(
        diagnosticAt(blockHeader(block), 'error', 'SCH003', `${where} implements ${base.ref} but does not set its required field "${field}"`, `add ${field} = … (it may use inputs.<name> and vars.<name>)`),
      );
    }
  }
  return new BlockBackedTool(block.range, {
    name,
    ref: `tools.${name}`,
    implements: base.ref,
    description: description ?? base.description,
    inputs: exactList(inputs as FieldSchema[]),
    idempotent: idempotent ?? base.idempotent,
    ...(approval === true ? { approval: true as const } : {}),
  });
}

/**
 * A custom tool as the MissionGraph holds it: its fields' expressions (a URL template, headers: a
 * few hundred bytes of syntax tree a tool) are parsed again from its block when a call reads them,
 * and its location is computed from the block's range, so a config of many tools does not hold them.
 */
class BlockBackedTool implements CustomTool {
  name!: string;
  ref!: string;
  implements!: string;
  description!: string;
  inputs!: FieldSchema[];
  idempotent!: boolean;
  approval?: true;
  /** The tool block's whole range. Private: for…in (and so deepFreeze) does not reach it. */
  readonly #block: Range;

  constructor(block: Range, fields: Omit<CustomTool, 'fields' | 'location'>) {
    this.#block = block;
    Object.assign(this, fields);
  }

  /** Every attribute of the block that is not the tool's own (implements, …), in source order; parsed anew on each read. */
  get fields(): Readonly<Record<string, Expression>> {
    const fields: Record<string, Expression> = {};
    for (const attr of reparseBlock(this.#block).body.attributes) if (!(attr.name in BASE)) fields[attr.name] = attr.expr;
    return fields;
  }

  get location(): SourceLocation {
    const start = this.#block.start;
    return { file: this.#block.file, line: start.line, column: start.column };
  }
}

/** A field whose value is already known must fit the builtin's property type. */
function checkFieldType(base: BuiltinToolInfo, field: string, v: Value, attr: Attribute, ctx: LoadContext): void {
  if (isUnknown(v) || v === null) return;
  const prop = ((base.inputSchema['properties'] ?? {}) as Record<string, { type?: string; anyOf?: { type: string }[] }>)[field];
  const types = prop?.type !== undefined ? [prop.type] : (prop?.anyOf ?? []).map((t) => t.type);
  if (types.length === 0) return;
  const actual = typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : isObjectValue(v) ? 'object' : Array.isArray(v) ? 'array' : 'other';
  const fits = types.includes(actual) || (types.includes('string') && (actual === 'number' || actual === 'boolean'));
  if (!fits) {
    ctx.diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH007', `the field "${field}" of ${base.ref} expects ${types.join(' or ')}, got ${typeName(v)}`));
  }
}
