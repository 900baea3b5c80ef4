// What a task ends with (its outcome) and what a downstream commander is given of it (an upstream
// result, with a digest of its items when it was iterated): the words the commander, the iteration
// and the scheduler share.

export interface UpstreamResult {
  name: string;
  summary: string;
  output?: unknown;
  /** An iterated task: a digest of its items in place of their outputs (read with query_task_output). */
  items?: ItemsDigest;
}

export type TaskOutcome =
  | { status: 'completed'; summary: string; output?: unknown; route?: string }
  | { status: 'failed'; error: string };

export interface ItemsDigest {
  /** Null in plan when the items are given only at run time. */
  total: number | null;
  completed: number;
  failed: number;
  /** `priority (string, required)`, from the output schema; else the keys of the example outputs. */
  fields: string[];
  examples: { index: number; output: string }[];
}
