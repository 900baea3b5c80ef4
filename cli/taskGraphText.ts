// A mission's task graph as text: the routing lines under a task in validate and plan, and the
// whole graph as Graphviz DOT or Mermaid for `squadron graph`. Every shape comes from the same edges
// (api/graph.ts, from config/taskEdges.ts), so the pictures cannot disagree with what the runtime does.

import type { TaskEdge } from '../api/graph.js';

/** A task's routes (`→ target  if "condition"`) and send_to targets (`→ target  (send_to)`), one per line. */
export function routingLines(t: { routes: readonly { target: string; condition: string }[]; send_to: readonly string[] }, prefix: string): string[] {
  const width = Math.max(0, ...t.routes.map((r) => r.target.length), ...t.send_to.map((s) => s.length));
  return [
    ...t.routes.map((r) => `${prefix}→ ${r.target.padEnd(width)}  if ${JSON.stringify(r.condition)}`),
    ...t.send_to.map((s) => `${prefix}→ ${s.padEnd(width)}  (send_to)`),
  ];
}

export interface GraphInput {
  mission: string;
  /** Task names in declaration order. */
  tasks: readonly string[];
  edges: readonly TaskEdge[];
  /** Direct tasks (direct = true: the worker alone, no commander), drawn with a rounded box; absent when none. */
  direct?: readonly string[];
}

/**
 * Graphviz DOT: one node per task, edges from the task that runs first. `depends_on` edges are solid,
 * routes dashed and labelled with their condition, send_to edges bold and labelled `send_to`.
 */
export function toDot(g: GraphInput): string {
  const out = [`digraph ${dotId(g.mission)} {`, '  rankdir=LR;', '  node [shape=box];'];
  for (const task of g.tasks) out.push(g.direct?.includes(task) ? `  ${dotId(task)} [label=${dotString(`${task} (direct)`)}, style=rounded];` : `  ${dotId(task)};`);
  for (const e of g.edges) {
    const attrs = e.kind === 'route' ? [`label=${dotString(e.condition ?? '')}`, 'style=dashed'] : e.kind === 'send_to' ? ['label="send_to"', 'style=bold'] : [];
    out.push(`  ${dotId(e.from)} -> ${dotId(e.to)}${attrs.length > 0 ? ` [${attrs.join(', ')}]` : ''};`);
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}

/**
 * Mermaid flowchart: `-->` for depends_on, `-.->|condition|` for routes, `==>|send_to|` for send_to.
 * Each task is node `t_<name>` labelled with its name.
 */
export function toMermaid(g: GraphInput): string {
  const out = ['flowchart LR'];
  for (const task of g.tasks) out.push(g.direct?.includes(task) ? `  ${mermaidId(task)}("${mermaidText(task)} (direct)")` : `  ${mermaidId(task)}["${mermaidText(task)}"]`);
  for (const e of g.edges) {
    const arrow = e.kind === 'route' ? `-.->|"${mermaidText(e.condition ?? '')}"|` : e.kind === 'send_to' ? '==>|send_to|' : '-->';
    out.push(`  ${mermaidId(e.from)} ${arrow} ${mermaidId(e.to)}`);
  }
  return `${out.join('\n')}\n`;
}

function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** A bare DOT id when the name is one and not a DOT keyword (`node`, `edge`, …, any case), else a quoted string. */
function dotId(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !DOT_KEYWORDS.has(name.toLowerCase()) ? name : dotString(name);
}

const DOT_KEYWORDS: ReadonlySet<string> = new Set(['node', 'edge', 'graph', 'digraph', 'subgraph', 'strict']);

/** Task names are lowercase letters, digits and `_`; the prefix keeps one named like a Mermaid keyword (`end`) usable. */
function mermaidId(name: string): string {
  return `t_${name}`;
}

/** Text inside a quoted Mermaid label: quotes and markup characters as entity codes. */
function mermaidText(text: string): string {
  return text.replace(/[\n\r]+/g, ' ').replace(/["#<>|]/g, (c) => `#${c.charCodeAt(0)};`);
}
