// The status sets of runs, tasks, sessions and ledger entries: defined once, here, and imported by the
// runtime (which moves things between them) and the store (which keeps them). Bottom layer.

// 'stopped': a budget stopped the run before a model call it could not afford (resumable with a raised limit).
// 'waiting': nothing else could proceed while calls wait for the operator (approve, deny, answer; then resume).
export const RUN_STATUSES = ['running', 'completed', 'failed', 'interrupted', 'stopped', 'waiting'] as const;
export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled', 'skipped'] as const;
export const SESSION_STATUSES = ['running', 'completed', 'failed'] as const;
/** 'pending_approval': stored before a call that needs approval; it becomes 'started' only once approved. */
export const LEDGER_STATUSES = ['pending_approval', 'started', 'completed'] as const;
/** A request to the operator: an approval of one tool call, or a question. */
export const OPERATOR_REQUEST_KINDS = ['approval', 'question'] as const;
export const OPERATOR_REQUEST_STATUSES = ['pending', 'approved', 'denied', 'answered', 'declined'] as const;
/** One item of an iterated task. */
export const ITEM_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export type OperatorRequestKind = (typeof OPERATOR_REQUEST_KINDS)[number];
export type OperatorRequestStatus = (typeof OPERATOR_REQUEST_STATUSES)[number];

/** How a run ended (or stopped): every run status but 'running'. */
export type FinishedRunStatus = Exclude<RunStatus, 'running'>;
/** How a session ended. */
export type FinishedSessionStatus = Exclude<SessionStatus, 'running'>;

/** Task states a task does not leave by itself; they set finished_at. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled', 'skipped']);
