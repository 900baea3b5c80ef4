// What a task inherits from its mission while it loads (the task and its worker both read it).

import type { Range } from '../hcl/diagnostic.js';
import type { AgentDefaults, CommanderSpec } from '../graph.js';
import type { Scope } from '../scope.js';

/** What a task can inherit from its mission. */
export interface MissionContext {
  name: string;
  scope: Scope;
  inputNames: readonly string[];
  commander?: CommanderSpec;
  defaults?: AgentDefaults;
  /** The mission's `agents` list, if declared. */
  agents?: string[];
  /** Whether that list lost an entry to an error already reported (see lostEntries). */
  agentsIncomplete?: boolean;
  /** The mission's `direct = true` (where it is written): its tasks run direct unless one says direct = false. */
  direct?: Range;
}
