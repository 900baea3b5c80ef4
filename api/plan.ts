// The types of a mission's plan (what `plan` returns): each task's commander and agents with the tools,
// skills and models they would be given, and the size of their first request. Type-only: free to import.

export type { AgentPlan, BudgetPlan, ContextPlan, IteratorPlan, MissionPlan, RequestBytes, TaskPlan, ToolResponsePlan } from '../runtime/plan/plan.js';
