// The one error type the programmatic API throws for a problem the caller can fix: a stable `code`
// to branch on, a message to show, and for an invalid config every diagnostic with its position.

import type { Diagnostic } from '../config/hcl/diagnostic.js';

export type SquadronErrorCode =
  /** The config has errors; `diagnostics` lists them all. */
  | 'config_invalid'
  /** No such mission, or several and none chosen. */
  | 'mission_not_found'
  /** A mission input is missing, undeclared or of the wrong type. */
  | 'input_invalid'
  /** Tool or skill selection that the config does not allow. */
  | 'selection_invalid'
  /** No such run in the database. */
  | 'run_not_found'
  /** The run cannot start or continue now (held by another process, unusable workspace, …). */
  | 'run_refused';

export class SquadronError extends Error {
  constructor(
    readonly code: SquadronErrorCode,
    message: string,
    readonly diagnostics: readonly Diagnostic[] = [],
    /** For `config_invalid`: the text of each file read, to render the diagnostics with excerpts. */
    readonly sources: ReadonlyMap<string, string> = new Map(),
  ) {
    super(message);
    this.name = 'SquadronError';
  }
}
