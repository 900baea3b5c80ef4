// A mission's task graph as data (`squadron graph`, the server's graph view): its tasks and every edge
// (depends_on, a router's routes with their conditions, send_to), from the same edges the runtime
// follows. Reads the config only.

import type { TaskEdge } from '../config/taskEdges.js';
import { taskEdges } from '../config/taskEdges.js';
import { selectMission, type LoadedProject } from './project.js';

export type { TaskEdge, TaskEdgeKind } from '../config/taskEdges.js';

export interface TaskGraph {
  mission: string;
  tasks: string[];
  edges: TaskEdge[];
  /** The tasks that run their worker alone (`direct = true`), when there are any. */
  direct?: string[];
}

/** The task graph of `mission` (optional when the config has one). */
export function missionTaskGraph(project: LoadedProject, mission?: string): TaskGraph {
  const m = selectMission(project.graph, mission);
  const direct = m.tasks.filter((t) => t.direct).map((t) => t.name);
  return { mission: m.name, tasks: m.tasks.map((t) => t.name), edges: taskEdges(m), ...(direct.length > 0 ? { direct } : {}) };
}
