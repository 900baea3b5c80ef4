// The `budget { tokens, dollars, duration }` block of a mission or a task (Go's rules: each limit
// above 0, tokens a whole number, at least one set; plus `duration`, a string like "45m"), and the
// warning that a dollar budget cannot see the calls of a model without pricing (MOD004), and that a
// budget smaller than what one call of a model reserves stops the run before that call (MOD006).

import type { Block } from '../hcl/ast.js';
import { diagnosticAt, type Diagnostic, type Range } from '../hcl/diagnostic.js';
import type { Budget, ModelBlock, ModelRef } from '../graph.js';
import { readDuration } from '../duration.js';
import { decodeBody, locationOf, type BlockSchema, type NestedBlockSpec } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { readNumber } from '../values.js';

/** The nested-block entry of the schemas that accept `budget` (Go: only one per block). */
export const BUDGET_BLOCK: NestedBlockSpec = { labels: [], max: 1 };

const SCHEMA: BlockSchema = { attributes: { tokens: {}, dollars: {}, duration: {} } };

export function loadBudget(block: Block | undefined, scope: Scope, ctx: LoadContext): Budget | undefined {
  if (block === undefined) return undefined;
  const where = `${scope.where} budget`;
  const body = decodeBody(block.body, SCHEMA, { what: where, header: block.typeRange }, ctx.diags);
  const tokensAttr = body.attrs.get('tokens');
  const dollarsAttr = body.attrs.get('dollars');
  const durationAttr = body.attrs.get('duration');
  const budget: Budget = { location: locationOf(block), range: block.typeRange };
  const tokens = readNumber(tokensAttr, scope, ctx.diags);
  if (tokens !== undefined && tokensAttr !== undefined) {
    if (!Number.isInteger(tokens) || tokens <= 0) ctx.diags.push(diagnosticAt(tokensAttr.expr.range, 'error', 'SCH013', `budget: tokens must be a whole number above 0, got ${tokens}`));
    else budget.tokens = tokens;
  }
  const dollars = readNumber(dollarsAttr, scope, ctx.diags);
  if (dollars !== undefined && dollarsAttr !== undefined) {
    if (!(dollars > 0) || !Number.isFinite(dollars)) ctx.diags.push(diagnosticAt(dollarsAttr.expr.range, 'error', 'SCH013', `budget: dollars must be above 0, got ${dollars}`));
    else budget.dollars = dollars;
  }
  const durationMs = readDuration(durationAttr, scope, ctx.diags);
  if (durationMs !== undefined) budget.durationMs = durationMs;
  if (tokensAttr === undefined && dollarsAttr === undefined && durationAttr === undefined) {
    ctx.diags.push(
      diagnosticAt(block.typeRange, 'error', 'SCH003', `${where}: at least one of tokens, dollars or duration must be set`, 'e.g. budget { dollars = 5 } or budget { tokens = 200000, duration = "45m" }'),
    );
    return undefined;
  }
  return budget.tokens === undefined && budget.dollars === undefined && budget.durationMs === undefined ? undefined : budget;
}

/**
 * MOD004: a dollar budget counts a model without pricing as $0, so it cannot stop that model's
 * spending. One warning per model, at the budget that cannot see it.
 */
export function checkBudgetPricing(budget: Budget | undefined, models: Iterable<ModelRef>, blocks: ReadonlyMap<string, ModelBlock>, what: string, diags: Diagnostic[]): void {
  if (budget?.dollars === undefined) return;
  const seen = new Set<string>();
  for (const ref of models) {
    const key = `${ref.block}.${ref.key}`;
    const block = blocks.get(ref.block);
    // Replayed and local (Ollama) models cost nothing by construction.
    if (seen.has(key) || block === undefined || block.provider === 'replay' || block.provider === 'ollama' || block.pricing[ref.key] !== undefined) continue;
    seen.add(key);
    diags.push(
      diagnosticAt(
        budget.range,
        'warning',
        'MOD004',
        `${what} has a dollar budget, but models.${key} has no pricing: its calls count as $0 against it`,
        `in model "${ref.block}": pricing "${ref.key}" { input = …, output = … }, or limit tokens instead`,
      ),
    );
  }
}

export type { Range };

/** The output tokens a model call may use when its block sets no max_output_tokens (the runtime's default). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

/**
 * MOD006: before each call the budget gate reserves its upper bound — at least the call's output
 * limit (max_output_tokens), priced at the output rate. A budget below that for a model it covers
 * stops the run before that model's first call. One warning per model, at the budget.
 */
export function checkBudgetFloor(budget: Budget | undefined, models: Iterable<ModelRef>, blocks: ReadonlyMap<string, ModelBlock>, what: string, diags: Diagnostic[]): void {
  if (budget === undefined || (budget.tokens === undefined && budget.dollars === undefined)) return;
  const seen = new Set<string>();
  for (const ref of models) {
    const key = `${ref.block}.${ref.key}`;
    const block = blocks.get(ref.block);
    if (seen.has(key) || block === undefined || block.provider === 'replay') continue;
    seen.add(key);
    const output = block.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    const rate = block.pricing[ref.key]?.output;
    const dollars = rate === undefined ? undefined : (rate * output) / 1_000_000;
    const short: string[] = [];
    if (budget.tokens !== undefined && budget.tokens < output) short.push(`${budget.tokens.toLocaleString('en-US')} tokens`);
    if (budget.dollars !== undefined && dollars !== undefined && budget.dollars < dollars) short.push(`$${budget.dollars}`);
    if (short.length === 0) continue;
    const bound = `${output.toLocaleString('en-US')} output tokens${dollars === undefined ? '' : ` ($${dollars.toFixed(4)})`}`;
    diags.push(
      diagnosticAt(
        budget.range,
        'warning',
        'MOD006',
        `${what} allows ${short.join(' and ')}, less than one call of models.${key} reserves (at least its ${bound}): the run stops before that call`,
        `raise the budget, or set a smaller max_output_tokens in model "${ref.block}" (squadron plan shows what each task's first call reserves)`,
      ),
    );
  }
}
