// What `resume` checks before it continues a run: that the run did not fail (a plain resume would
// repeat the failure) and that the config and variables are the ones the run last ran with.

import type { VariableValue } from '../../config/graph.js';
import { configChanges, runVariables, type RunConfig, type RunVariables } from './runConfig.js';
import { RunRefused } from './runRefused.js';
import { chatAgentOf } from '../../core/chatRuns.js';

/** A chat (`squadron chat`) is stored as a run but continued by `chat --resume`, never as a mission's run. */
export function chatRunRefusal(runId: string, mission: string, command: 'resume' | 'fork'): RunRefused | undefined {
  if (chatAgentOf(mission) === undefined) return undefined;
  return new RunRefused(`${runId} is a chat, not a mission's run: ${command === 'resume' ? 'continue it' : 'it cannot be forked; continue it'} with \`squadron chat --resume ${runId}\``, 'usage');
}

/** A run with a failed task is not resumed as it is: the same conversation would fail the same way. */
export function failedRunRefusal(runId: string, status: string, failedTasks: readonly string[]): RunRefused | undefined {
  if (status !== 'failed' && failedTasks.length === 0) return undefined;
  const what = failedTasks.length > 0 ? failedTasks.map((t) => `task "${t}"`).join(', ') : 'the run';
  return new RunRefused(`run ${runId} failed (${what}); resuming would repeat the failure`, 'state', true);
}

/**
 * Compares the loaded config and variables with the run's. Refuses a difference unless allowed;
 * returns what to store on the run once it is leased (undefined when nothing is to be stored).
 */
export function checkConfig(
  loaded: { config?: RunConfig | undefined; variables: readonly VariableValue[] },
  run: { id: string; config?: RunConfig; variables?: RunVariables },
  opts: { allowConfigChange?: boolean; onNote?: (message: string) => void },
): { config: RunConfig; variables: RunVariables; changes?: string[] } | undefined {
  if (!loaded.config) return undefined;
  const current = { config: loaded.config, variables: runVariables(loaded.variables) };
  if (!run.config || !run.variables) {
    opts.onNote?.(`run ${run.id} was stored before runs recorded their config, so its config and variables are not checked; they are recorded now for later resumes`);
    return current;
  }
  const changes = configChanges({ config: run.config, variables: run.variables }, current);
  if (changes.length === 0) return undefined;
  if (!opts.allowConfigChange) {
    throw new RunRefused(
      `the config of run ${run.id} changed since it last ran:\n${changes.map((c) => `  ${c}`).join('\n')}\nrestore it, or resume anyway with --allow-config-change (recorded on the run)`,
      'usage',
    );
  }
  opts.onNote?.(`resuming run ${run.id} with a changed config (recorded on the run): ${changes.join('; ')}`);
  return { ...current, changes };
}
