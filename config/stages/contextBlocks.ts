// The `compaction { token_limit, turn_retention, summarize }` and `pruning { prune_on, prune_to }`
// blocks of a commander, an agent or agent_defaults (Go's names): when a long session's request is
// cut down (docs/concepts/context.md). Unset figures take the runtime's defaults, which follow the
// model's context window.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { Compaction, ContextSettings, Pruning } from '../graph.js';
import { decodeBody, type BlockSchema, type NestedBlockSpec } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { readBool, readInteger } from '../values.js';
import { groupDigits } from '../../core/digits.js';

/** Below this, a compacted request would hold little more than its head. */
export const MIN_TOKEN_LIMIT = 1_000;
export const MAX_TOKEN_LIMIT = 10_000_000;

/** The nested-block entries of the schemas that accept them. */
export const CONTEXT_BLOCKS: Readonly<Record<'compaction' | 'pruning', NestedBlockSpec>> = {
  compaction: { labels: [], max: 1 },
  pruning: { labels: [], max: 1 },
};

const COMPACTION: BlockSchema = { attributes: { token_limit: {}, turn_retention: {}, summarize: {} } };
const PRUNING: BlockSchema = { attributes: { prune_on: { required: true }, prune_to: { required: true } } };

/** Both blocks of a body's decoded nested blocks; undefined when neither is set (or both failed). */
export function loadContextSettings(blocks: ReadonlyMap<string, readonly Block[]>, scope: Scope, ctx: LoadContext): ContextSettings | undefined {
  const compaction = loadCompaction(blocks.get('compaction')?.[0], scope, ctx);
  const pruning = loadPruning(blocks.get('pruning')?.[0], scope, ctx);
  if (compaction === undefined && pruning === undefined) return undefined;
  const settings: ContextSettings = {};
  if (compaction !== undefined) settings.compaction = compaction;
  if (pruning !== undefined) settings.pruning = pruning;
  return settings;
}

function loadCompaction(block: Block | undefined, scope: Scope, ctx: LoadContext): Compaction | undefined {
  if (block === undefined) return undefined;
  const body = decodeBody(block.body, COMPACTION, { what: `${scope.where} compaction`, header: block.typeRange }, ctx.diags);
  const limitAttr = body.attrs.get('token_limit');
  let tokenLimit = readInteger(limitAttr, scope, ctx.diags, MIN_TOKEN_LIMIT);
  if (tokenLimit !== undefined && tokenLimit > MAX_TOKEN_LIMIT) {
    ctx.diags.push(
      diagnosticAt(
        limitAttr!.expr.range,
        'error',
        'SCH013',
        `token_limit must be at most ${groupDigits(MAX_TOKEN_LIMIT)}, got ${tokenLimit}`,
        "a request above this many input tokens is compacted; leave it out to follow the model's context window",
      ),
    );
    tokenLimit = undefined;
  }
  const turnRetention = readInteger(body.attrs.get('turn_retention'), scope, ctx.diags, 1);
  const summarize = readBool(body.attrs.get('summarize'), scope, ctx.diags);
  const out: Compaction = {};
  if (tokenLimit !== undefined) out.tokenLimit = tokenLimit;
  if (turnRetention !== undefined) out.turnRetention = turnRetention;
  if (summarize !== undefined) out.summarize = summarize;
  return out;
}

function loadPruning(block: Block | undefined, scope: Scope, ctx: LoadContext): Pruning | undefined {
  if (block === undefined) return undefined;
  const body = decodeBody(block.body, PRUNING, { what: `${scope.where} pruning`, header: block.typeRange }, ctx.diags);
  const pruneOn = readInteger(body.attrs.get('prune_on'), scope, ctx.diags, 2);
  const toAttr = body.attrs.get('prune_to');
  const pruneTo = readInteger(toAttr, scope, ctx.diags, 1);
  if (pruneOn === undefined || pruneTo === undefined) return undefined;
  if (pruneTo >= pruneOn) {
    ctx.diags.push(
      diagnosticAt(
        toAttr!.expr.range,
        'error',
        'SCH013',
        `prune_to must be less than prune_on (${pruneOn}), got ${pruneTo}`,
        'once a request holds prune_on model turns, the oldest are dropped until prune_to remain',
      ),
    );
    return undefined;
  }
  return { pruneOn, pruneTo };
}
