// Checks on the models a config actually references (commanders, agents, tasks, agent_defaults):
// a deprecated wire id warns with its end-of-life date and the key to move to (MOD001); a retired
// one fails (MOD002; only a warning through a base_url); a model without pricing warns that its
// cost counts as 0 (MOD003). One diagnostic per model and problem, at the first reference resolved.
// Replay blocks are exempt: nothing is sent to a provider and nothing is billed.

import { diagnosticAt, type Diagnostic } from './hcl/diagnostic.js';
import type { ModelBlock, ModelRef } from './graph.js';
import { catalogModelByApiId, UNKNOWN_CONTEXT_WINDOW, type CatalogEndOfLife } from './modelCatalog.js';
import type { ModelUse } from './scope.js';

const PROVIDER_NAMES = { anthropic: 'Anthropic', openai: 'OpenAI', gemini: 'Google', ollama: 'Ollama', replay: 'replay' } as const;

/** `today` is `YYYY-MM-DD` (the day the check runs, UTC, unless a test fixes it). */
export function checkModelUses(uses: ReadonlyMap<string, ModelUse>, models: ReadonlyMap<string, ModelBlock>, today: string, diags: Diagnostic[]): void {
  for (const first of uses.values()) {
    const block = models.get(first.ref.block);
    if (block === undefined || block.provider === 'replay') continue;
    const endOfLife = catalogModelByApiId(block.provider, first.ref.apiModel)?.endOfLife;
    if (endOfLife !== undefined) diags.push(endOfLifeDiagnostic(first, first.count, block, endOfLife, today));
    if (block.provider === 'ollama') {
      // A local model costs nothing, and no catalog can know its window.
      if (block.contextWindow === undefined) diags.push(unknownWindowDiagnostic(first));
      continue;
    }
    if (block.pricing[first.ref.key] === undefined) diags.push(noPricingDiagnostic(first));
  }
}

function endOfLifeDiagnostic(use: ModelUse, count: number, block: ModelBlock, eol: CatalogEndOfLife, today: string): Diagnostic {
  const { ref } = use;
  const provider = PROVIDER_NAMES[ref.provider];
  const replacement = `models.${ref.block}.${eol.replacement}`;
  const alias = block.aliases[ref.key] !== undefined;
  const hint = alias ? `point the alias at another model, or use ${replacement}` : `use ${replacement} instead`;
  const days = daysBetween(today, eol.date);
  if (days > 0) {
    const when = days === 1 ? 'tomorrow' : `in ${days} days`;
    return diagnosticAt(use.range, 'warning', 'MOD001', `${describe(ref)} is deprecated: ${provider} retires it on ${eol.date} (${when})${references(count)}`, hint);
  }
  // Through a base_url (a proxy, a compatible server) the id may still be served: only warn there.
  const severity = block.baseUrl === undefined ? 'error' : 'warning';
  const because = block.baseUrl === undefined ? 'requests to it fail' : `requests to it fail unless ${block.baseUrl} still serves it`;
  return diagnosticAt(use.range, severity, 'MOD002', `${describe(ref)} was retired by ${provider} on ${eol.date}: ${because}${references(count)}`, hint);
}

function noPricingDiagnostic(use: ModelUse): Diagnostic {
  const { ref } = use;
  return diagnosticAt(
    use.range,
    'warning',
    'MOD003',
    `no pricing for ${describe(ref)}: its cost counts as 0; add a pricing block`,
    `in model "${ref.block}": pricing "${ref.key}" { input = …, output = … } (USD per million tokens; 0 and 0 if it is free)`,
  );
}

function unknownWindowDiagnostic(use: ModelUse): Diagnostic {
  const { ref } = use;
  return diagnosticAt(
    use.range,
    'warning',
    'MOD005',
    `the context window of ${describe(ref)} is unknown: ${UNKNOWN_CONTEXT_WINDOW.toLocaleString('en-US')} tokens is assumed`,
    `set context_window on model "${ref.block}" to the window the model was loaded with (Ollama's num_ctx)`,
  );
}

function describe(ref: ModelRef): string {
  return `models.${ref.block}.${ref.key} (${ref.apiModel})`;
}

/** Only the first reference is reported: say how many there are in all. */
const references = (count: number): string => (count > 1 ? `; referenced ${count} times` : '');

/** Whole days from `from` to `to` (both `YYYY-MM-DD`, UTC). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
