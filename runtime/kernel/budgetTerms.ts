// The words of a budget the run's events speak too: what a budget limits, its limits, and its scope
// (the mission or a task). How limits are read and described is the budget room's (budget/limits.ts).

export type BudgetKind = 'tokens' | 'dollars' | 'duration';
export const BUDGET_KINDS: readonly BudgetKind[] = ['tokens', 'dollars', 'duration'];

/** Limits of one budget; `duration` in milliseconds. */
export type Limits = Partial<Record<BudgetKind, number>>;

/** `mission` or a task's name. */
export type BudgetScope = string;
export const MISSION_SCOPE = 'mission';
