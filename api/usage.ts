// What a run spent and may spend, as numbers and as the words every surface shows them in: token
// totals, budget limits and their spend (`12,400 of 50,000 tokens`). Light: no store driver, no
// model SDK, so a command that only prints may load it at start-up.

export { totalTokens } from '../runtime/kernel/usage.js';
export type { UsageTotals } from '../runtime/kernel/usage.js';
export { BUDGET_KINDS, describeAmount, describeLimits, parseBudgetFlag, type Limits } from '../runtime/budget/limits.js';
export { spendText } from '../runtime/budget/stored.js';
