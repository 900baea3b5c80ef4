// A mission's task graph as edges: what starts a task after another (depends_on, a router route with
// its condition, send_to). One definition for everything that shows the graph: validate, plan and
// `squadron graph` (DOT, Mermaid, JSON).

import type { Mission } from './graph.js';

export type TaskEdgeKind = 'depends_on' | 'route' | 'send_to';

export interface TaskEdge {
  /** The task that runs first. */
  from: string;
  /** The task that it starts, or that waits for it. */
  to: string;
  kind: TaskEdgeKind;
  /** A route's condition, as written (routes only). */
  condition?: string;
}

/** Every edge of the mission's graph, grouped by the task that declares it, in declaration order. */
export function taskEdges(mission: Mission): TaskEdge[] {
  const edges: TaskEdge[] = [];
  for (const task of mission.tasks) {
    for (const dep of task.dependsOn) edges.push({ from: dep, to: task.name, kind: 'depends_on' });
    for (const route of task.router) edges.push({ from: task.name, to: route.target, kind: 'route', condition: route.condition });
    for (const target of task.sendTo) edges.push({ from: task.name, to: target, kind: 'send_to' });
  }
  return edges;
}
