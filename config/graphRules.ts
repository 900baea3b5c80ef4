// The mission graph rules: self-references, duplicate targets, router/send_to exclusivity, tasks
// activated dynamically (router/send_to targets) that also wait on depends_on, at least one task
// that can start, and dependency cycles over depends_on + router + send_to, printed as a path.

import { diagnosticAt, type Diagnostic, type Range } from './hcl/diagnostic.js';

export interface NamedRef {
  name: string;
  range: Range;
}

/** The edges one task declares, with the positions of each reference. */
export interface TaskEdges {
  name: string;
  header: Range;
  dependsOn: NamedRef[];
  /** The `depends_on` attribute name, where "may not have depends_on" points. */
  dependsOnRange?: Range;
  routes: NamedRef[];
  /** The `router` keyword. */
  routerRange?: Range;
  sendTo: NamedRef[];
  /** The `send_to` attribute name. */
  sendToRange?: Range;
}

/** Drops self-references and repeats (reporting them); what remains are the usable edges. */
function cleanList(task: TaskEdges, list: NamedRef[], what: 'depends_on' | 'router' | 'send_to', diags: Diagnostic[]): NamedRef[] {
  const out: NamedRef[] = [];
  const seen = new Set<string>();
  for (const ref of list) {
    if (ref.name === task.name) {
      const verb = what === 'depends_on' ? 'depend on' : what === 'router' ? 'route to' : 'send to';
      diags.push(diagnosticAt(ref.range, 'error', 'GRA003', `task "${task.name}" cannot ${verb} itself`));
      continue;
    }
    if (seen.has(ref.name)) {
      diags.push(diagnosticAt(ref.range, 'error', 'GRA006', `tasks.${ref.name} is listed twice in ${what} of task "${task.name}"`));
      continue;
    }
    seen.add(ref.name);
    out.push(ref);
  }
  return out;
}

/**
 * Checks one mission's task graph. Returns the cleaned edges (self-references and repeats removed),
 * which is what the TaskSpecs should carry.
 */
export function checkMissionGraph(mission: string, missionHeader: Range, tasks: readonly TaskEdges[], diags: Diagnostic[]): TaskEdges[] {
  if (tasks.length === 0) {
    diags.push(diagnosticAt(missionHeader, 'error', 'GRA001', `mission "${mission}" has no tasks`, 'add a task "name" { objective = "…" } block'));
    return [];
  }
  const cleaned = tasks.map((t) => ({
    ...t,
    dependsOn: cleanList(t, t.dependsOn, 'depends_on', diags),
    routes: cleanList(t, t.routes, 'router', diags),
    sendTo: cleanList(t, t.sendTo, 'send_to', diags),
  }));

  for (const t of cleaned) {
    if (t.routerRange !== undefined && t.sendToRange !== undefined) {
      diags.push(diagnosticAt(t.sendToRange, 'error', 'GRA005', `task "${t.name}" has both a router and send_to`, 'use the router for conditional next tasks or send_to for unconditional ones, not both'));
    }
  }

  // Tasks that only run when a router or send_to activates them.
  const activatedBy = new Map<string, string>();
  for (const t of cleaned) for (const r of [...t.routes, ...t.sendTo]) if (!activatedBy.has(r.name)) activatedBy.set(r.name, t.name);
  for (const t of cleaned) {
    const by = activatedBy.get(t.name);
    if (by !== undefined && t.dependsOn.length > 0) {
      diags.push(
        diagnosticAt(t.dependsOnRange ?? t.header, 'error', 'GRA007', `task "${t.name}" is started by "${by}" (router/send_to), so it cannot also have depends_on`, `remove depends_on; "${t.name}" runs when "${by}" activates it`),
      );
    }
    for (const d of t.dependsOn) {
      const dBy = activatedBy.get(d.name);
      if (dBy !== undefined) {
        diags.push(
          diagnosticAt(d.range, 'error', 'GRA010', `task "${t.name}" depends on "${d.name}", which only runs if "${dBy}" activates it`, `route or send to "${t.name}" from "${d.name}" instead`),
        );
      }
    }
  }
  if (!cleaned.some((t) => t.dependsOn.length === 0 && !activatedBy.has(t.name))) {
    diags.push(
      diagnosticAt(missionHeader, 'error', 'GRA008', `no task of mission "${mission}" can start: each one waits on depends_on or on a router/send_to`, 'at least one task needs no depends_on and must not be a router/send_to target'),
    );
  }
  reportCycles(cleaned, diags);
  return cleaned;
}

interface FlowEdge {
  to: string;
  /** The reference that creates this edge. */
  range: Range;
}

/**
 * Edges in run order: a dependency runs before its dependent; a router/send_to source before its
 * target. A cycle in these edges can never finish, whichever kind of edge closes it.
 */
function flowEdges(tasks: readonly TaskEdges[]): Map<string, FlowEdge[]> {
  const edges = new Map<string, FlowEdge[]>(tasks.map((t) => [t.name, []]));
  for (const t of tasks) {
    for (const d of t.dependsOn) edges.get(d.name)?.push({ to: t.name, range: d.range });
    for (const r of [...t.routes, ...t.sendTo]) edges.get(t.name)?.push({ to: r.name, range: r.range });
  }
  return edges;
}

/**
 * Depth-first search for back edges, each reported once per set of tasks. The search keeps its own
 * stack: a chain of thousands of tasks must not need as many JavaScript frames.
 */
function reportCycles(tasks: readonly TaskEdges[], diags: Diagnostic[]): void {
  const edges = flowEdges(tasks);
  const state = new Map<string, 'active' | 'done'>();
  const reported = new Set<string>();
  /** The active path: each task with the index of the next edge to follow from it. */
  const path: { node: string; out: readonly FlowEdge[]; next: number }[] = [];
  const open = (node: string): void => {
    state.set(node, 'active');
    path.push({ node, out: edges.get(node) ?? [], next: 0 });
  };
  for (const t of tasks) {
    if (state.has(t.name)) continue;
    open(t.name);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const e = top.out[top.next++];
      if (e === undefined) {
        path.pop();
        state.set(top.node, 'done');
        continue;
      }
      const s = state.get(e.to);
      if (s === undefined) {
        open(e.to);
        continue;
      }
      if (s === 'done') continue;
      const cycle = [...path.slice(path.findIndex((f) => f.node === e.to)).map((f) => f.node), e.to];
      const key = [...new Set(cycle)].sort().join('\u0000');
      if (!reported.has(key)) {
        reported.add(key);
        diags.push(diagnosticAt(e.range, 'error', 'GRA004', `dependency cycle: ${cycle.join(' → ')}`, 'remove one of the depends_on, router or send_to links in the cycle'));
      }
    }
  }
}
