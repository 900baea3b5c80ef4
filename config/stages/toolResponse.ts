// The `tool_response { max_tokens }` block of a commander, an agent or agent_defaults (Go's names):
// how many tokens one tool result may take in the model's context before it is stored and the model
// gets a preview with a handle instead (docs/concepts/context.md).

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { ToolResponse } from '../graph.js';
import { decodeBody, type BlockSchema, type NestedBlockSpec } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { readNumber } from '../values.js';
import { groupDigits } from '../../core/digits.js';

/** Go's default. A result above it is stored; what the model gets instead stays under ~2 KB. */
export const DEFAULT_TOOL_RESPONSE_MAX_TOKENS = 16_000;
/** Below this, a page read back from a stored result would hold too little to be useful. */
export const MIN_TOOL_RESPONSE_MAX_TOKENS = 1_000;
export const MAX_TOOL_RESPONSE_MAX_TOKENS = 1_000_000;

/** The nested-block entry of the schemas that accept `tool_response`. */
export const TOOL_RESPONSE_BLOCK: NestedBlockSpec = { labels: [], max: 1 };

const SCHEMA: BlockSchema = { attributes: { max_tokens: { required: true } } };

export function loadToolResponse(block: Block | undefined, scope: Scope, ctx: LoadContext): ToolResponse | undefined {
  if (block === undefined) return undefined;
  const where = `${scope.where} tool_response`;
  const body = decodeBody(block.body, SCHEMA, { what: where, header: block.typeRange }, ctx.diags);
  const attr = body.attrs.get('max_tokens');
  const n = readNumber(attr, scope, ctx.diags);
  if (n === undefined || attr === undefined) return undefined;
  if (!Number.isInteger(n) || n < MIN_TOOL_RESPONSE_MAX_TOKENS || n > MAX_TOOL_RESPONSE_MAX_TOKENS) {
    ctx.diags.push(
      diagnosticAt(
        attr.expr.range,
        'error',
        'SCH013',
        `max_tokens must be a whole number from ${groupDigits(MIN_TOOL_RESPONSE_MAX_TOKENS)} to ${groupDigits(MAX_TOOL_RESPONSE_MAX_TOKENS)}, got ${n}`,
        `a tool result above this many tokens is stored and the model reads it by handle; the default is ${groupDigits(DEFAULT_TOOL_RESPONSE_MAX_TOKENS)}`,
      ),
    );
    return undefined;
  }
  return { maxTokens: n };
}
