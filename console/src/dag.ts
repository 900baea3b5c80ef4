// A run's task graph as a DAG: dagre lays it out (ranks, crossings, edge routes); the SVG draws each
// task coloured by status, depends_on edges solid, routes dashed (the one taken bold) and send_to dotted.
import dagre from '@dagrejs/dagre';
import { html } from './html.js';

export interface TaskDoc {
  name: string;
  status: string;
  depends_on: string[];
  routes: string[];
  send_to: string[];
  route?: string;
  activated_by?: string;
  items?: { total: number; completed: number; failed: number };
}

const W = 170;
const H = 54;

export function TaskGraph(props: { tasks: TaskDoc[]; onOpen: (task: string) => void }) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 24, ranksep: 60, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  const names = new Set(props.tasks.map((t) => t.name));
  for (const t of props.tasks) g.setNode(t.name, { width: W, height: H });
  const edges: { from: string; to: string; kind: string; taken: boolean }[] = [];
  for (const t of props.tasks) {
    for (const d of t.depends_on) if (names.has(d)) edges.push({ from: d, to: t.name, kind: 'depends', taken: true });
    for (const r of t.routes) if (names.has(r)) edges.push({ from: t.name, to: r, kind: 'route', taken: t.route === r });
    for (const s of t.send_to) if (names.has(s)) edges.push({ from: t.name, to: s, kind: 'send', taken: true });
  }
  edges.forEach((e, i) => g.setEdge(e.from, e.to, {}, String(i)));
  dagre.layout(g);
  const size = g.graph() as { width?: number; height?: number };
  return html`<svg class="dag" width=${size.width ?? 0} height=${size.height ?? 0} role="img" aria-label="task graph">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#7a8396" /></marker></defs>
    ${edges.map((e, i) => {
      const pts = (g.edge(e.from, e.to, String(i)) as { points: { x: number; y: number }[] }).points;
      const d = pts.map((p, j) => `${j === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
      return html`<path class=${`edge ${e.kind}${e.taken ? ' taken' : ' not-taken'}`} d=${d} marker-end="url(#arrow)"><title>${e.kind === 'depends' ? `${e.to} depends on ${e.from}` : e.kind === 'route' ? `route ${e.from} → ${e.to}${e.taken ? ' (taken)' : ''}` : `${e.from} sends to ${e.to}`}</title></path>`;
    })}
    ${props.tasks.map((t) => {
      const n = g.node(t.name) as { x: number; y: number };
      const progress = t.items ? `${t.items.completed}/${t.items.total}${t.items.failed ? ` · ${t.items.failed} failed` : ''}` : t.status;
      return html`<g class=${`node ${t.status}`} data-task=${t.name} data-status=${t.status} transform=${`translate(${n.x - W / 2},${n.y - H / 2})`} onClick=${() => props.onOpen(t.name)}>
        <rect width=${W} height=${H} rx="8" />
        <text x="10" y="22" class="name">${t.name.length > 22 ? `${t.name.slice(0, 21)}…` : t.name}</text>
        <text x="10" y="41" class="sub">${progress}</text>
      </g>`;
    })}
  </svg>`;
}
