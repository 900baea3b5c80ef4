// The one error type the programmatic API throws for a problem the caller can fix: a stable `code`
// to branch on, a message to show, and for an invalid config every diagnostic with its position.

import type { Diagnostic } from '../config/hcl/diagnostic.js';

/**
 * The same vocabulary as the CLI's `error_code` (docs/concepts/cli.md), so a program and a script
 * branch on the same names.
 */
export type SquadronErrorCode =
  /** The config has errors; `diagnostics` lists them all. */
  | 'invalid_config'
  /** No such mission, task or run. */
  | 'not_found'
  /** A value the call does not accept: a mission input, a tool or skill selection, a missing secret. */
  | 'usage'
  /** The run cannot start or continue with what was given (an unusable workspace, a changed config). */
  | 'run_refused'
  /** Another live process is executing the run. */
  | 'run_busy'
  /** The state of the run refuses the call as asked (a failed run resumed without `retryFailed`). */
  | 'refused';

export class SquadronError extends Error {
  constructor(
    readonly code: SquadronErrorCode,
    message: string,
    readonly diagnostics: readonly Diagnostic[] = [],
    /** For `invalid_config`: the text of each file read, to render the diagnostics with excerpts. */
    readonly sources: ReadonlyMap<string, string> = new Map(),
  ) {
    super(message);
    this.name = 'SquadronError';
  }
}
