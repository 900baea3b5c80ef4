// Whether a mission may ask its operator anything: a tool needing approval or builtins.human.ask. (An
// MCP elicitation on another runner is declined.) On PostgreSQL such a run keeps its tasks in its coordinator, where
// the operator's desk (and terminal) is: a task on another runner could not ask, nor park the run.

import type { Mission, MissionGraph, ToolRefWithProvenance } from '../../config/graph.js';
import { HUMAN_ASK } from './question.js';

export function missionNeedsOperator(graph: MissionGraph, mission: Mission): boolean {
  if (graph.customTools.some((t) => t.approval)) return true;
  const asks = (tools: readonly ToolRefWithProvenance[]) => tools.some((t) => t.approval !== undefined || t.ref === HUMAN_ASK);
  const agents = [...graph.agents, ...mission.localAgents];
  for (const task of mission.tasks) {
    if ((task.approval?.length ?? 0) > 0) return true;
    if (task.worker && asks(task.worker.tools)) return true;
    for (const name of task.agents) {
      const agent = agents.find((a) => a.name === name);
      if (agent && ((agent.approval?.length ?? 0) > 0 || asks(agent.tools))) return true;
    }
  }
  return false;
}
