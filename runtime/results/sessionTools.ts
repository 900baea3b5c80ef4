// The read tools in a session: authorized from the start, sent to the model only once the session
// holds a stored result (its own, or one an agent's answer passed up), and then always last in the
// tool list, so a prompt never carries tools that have nothing to read and a resumed session, which
// asks the store, lists the tools in the same order.

import type { Toolbox } from '../tools/toolbox.js';
import type { ResultScope } from './offload.js';
import { RESULT_READ, RESULT_SEARCH, resultTools } from './readTools.js';

export async function addResultTools(toolbox: Toolbox, scope: ResultScope): Promise<void> {
  for (const tool of resultTools(scope)) toolbox.authorize(tool);
  await revealResultTools(toolbox, scope);
}

export async function revealResultTools(toolbox: Toolbox, scope: ResultScope): Promise<void> {
  if (toolbox.resolve(RESULT_READ) === undefined || toolbox.visibleNames().includes(RESULT_READ)) return;
  if (!(await scope.store.storedResults.hasAny(scope.sessionId))) return;
  toolbox.showLast(RESULT_READ);
  toolbox.showLast(RESULT_SEARCH);
}

export function isResultReader(ref: string): boolean {
  return ref === RESULT_READ || ref === RESULT_SEARCH;
}
