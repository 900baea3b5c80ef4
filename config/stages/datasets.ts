// A mission's `dataset` blocks: the list a task's `iterator` runs over. Items are written in the
// config (`items = [...]`, checked against the schema now, every bad item reported with its index) or
// come from a list input (`bind_to = inputs.tickets`, checked when the run starts: datasetItems), or,
// with neither, are filled while the run goes by a task holding builtins.dataset.set (as in Go).

import type { Block, Expression } from '../hcl/ast.js';
import { diagnosticAt, type Diagnostic } from '../hcl/diagnostic.js';
import { isUnknown, type Value } from '../hcl/value.js';
import type { DatasetSource, DatasetSpec, FieldSchema } from '../graph.js';
import { itemProblems } from '../datasetItems.js';
import { readFieldSchema } from '../fieldSchema.js';
import { resolveNameRef } from '../references.js';
import { blockHeader, decodeBody, locationOf, type BlockSchema } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { evaluateValue, readText } from '../values.js';
import { loadNamedBlocks } from './namedBlocks.js';
import { typeName } from '../hcl/convert.js';

const SCHEMA: BlockSchema = {
  attributes: { description: {}, items: {}, bind_to: {}, schema: {} },
  blocks: { schema: { labels: [], max: 1 } },
};

export function loadDatasets(blocks: readonly Block[], scope: Scope, ctx: LoadContext): DatasetSpec[] {
  return loadNamedBlocks(blocks, 'dataset', ctx, (block, name) => loadDataset(block, name, { ...scope, where: `${scope.where} dataset "${name}"` }, ctx), {
    namespace: 'datasets',
  });
}

function loadDataset(block: Block, name: string, scope: Scope, ctx: LoadContext): DatasetSpec | undefined {
  const header = blockHeader(block);
  const body = decodeBody(block.body, SCHEMA, { what: `dataset "${name}"`, header }, ctx.diags);
  const itemsAttr = body.attrs.get('items');
  const bindAttr = body.attrs.get('bind_to');
  const description = readText(body.attrs.get('description'), scope, ctx.diags);
  const schema = readFieldSchema(body.attrs.get('schema'), body.blocks.get('schema'), scope, ctx.diags, `schema of dataset "${name}"`);

  if (itemsAttr !== undefined && bindAttr !== undefined) {
    ctx.diags.push(
      diagnosticAt(bindAttr.nameRange, 'error', 'SCH012', `dataset "${name}" sets both items and bind_to`, 'keep one: items = [...] written here, or bind_to = inputs.<name> given at run time'),
    );
    return undefined;
  }
  let source: DatasetSource | undefined;
  if (itemsAttr !== undefined) {
    const before = ctx.diags.length;
    const value = evaluateValue(itemsAttr.expr, scope, ctx.diags);
    if (value !== undefined && !isUnknown(value)) {
      if (!Array.isArray(value)) {
        ctx.diags.push(diagnosticAt(itemsAttr.expr.range, 'error', 'SCH007', `items of dataset "${name}" must be a list, got ${typeName(value)}`, 'write items = [ { … }, { … } ]'));
      } else {
        if (schema !== undefined) checkLiteralItems(value, schema, name, itemsAttr.expr, ctx.diags);
        source = { kind: 'items', items: value };
      }
    } else if (ctx.diags.length === before && value !== undefined) {
      // Unknown at load time (a variable without a value during validate): nothing to check yet.
      source = { kind: 'items', items: [] };
    }
  } else if (bindAttr !== undefined) {
    const input = resolveNameRef(bindAttr.expr, 'inputs', scope.inputs ?? new Map(), scope, ctx.diags);
    const declared = input === undefined ? undefined : scope.inputs?.get(input);
    if (declared !== undefined && declared.type !== 'list') {
      ctx.diags.push(
        diagnosticAt(bindAttr.expr.range, 'error', 'ITR002', `dataset "${name}" is bound to input "${input}" of type ${declared.type}; bind_to needs a list input`, `declare it as input "${input}" { type = "list" }`),
      );
    } else if (input !== undefined) {
      source = { kind: 'input', input };
    }
  } else {
    // Neither: the Go original's dataset, filled while the run goes (builtins.dataset.set).
    source = { kind: 'filled' };
  }
  if (source === undefined) return undefined;
  const dataset: DatasetSpec = { name, source, location: locationOf(block) };
  if (description !== undefined) dataset.description = description;
  if (schema !== undefined) dataset.schema = schema;
  return dataset;
}

/** Items written in the config: one ITR003 per bad item, at the item when the list is written out. */
function checkLiteralItems(items: readonly Value[], schema: readonly FieldSchema[], dataset: string, expr: Expression, diags: Diagnostic[]): void {
  items.forEach((item, index) => {
    if (containsUnknown(item)) return;
    const problems = itemProblems(schema, item, index);
    if (problems.length === 0) return;
    const at = expr.kind === 'Tuple' ? (expr.items[index]?.range ?? expr.range) : expr.range;
    diags.push(diagnosticAt(at, 'error', 'ITR003', `item ${index} of dataset "${dataset}" does not match its schema: ${problems.join('; ')}`));
  });
}

function containsUnknown(v: Value): boolean {
  if (isUnknown(v)) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v !== null && typeof v === 'object') return Object.values(v).some(containsUnknown);
  return false;
}
