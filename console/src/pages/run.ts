// A run: its figures, the budget against its limits, the task graph updated live from the run's
// event stream, each task's progress (n/N items, failures), tokens and cost, and what it waits on.
import { useEffect, useState } from 'preact/hooks';
import { debounced, follow, getJson, postJson } from '../api.js';
import { TaskGraph, type TaskDoc } from '../dag.js';
import { dollars, duration, time, tokens } from '../format.js';
import { html } from '../html.js';
import { Requests, type RequestDoc } from '../requests.js';

interface Usage {
  total_tokens: number;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  model_turns: number;
}
interface RunDoc {
  run: { id: string; mission: string; status: string; started_at: string; finished_at?: string; error?: string };
  usage: Usage;
  tasks: (TaskDoc & { usage: Usage; started_at?: string; finished_at?: string; error?: string; items?: { total: number; completed: number; failed: number; list: { index: number; status: string; error?: string }[] } })[];
  budgets: { scope: string; limits: { tokens?: number; dollars?: number; duration?: number }; spent: { tokens: number; dollars: number; duration: number } }[];
  operator_requests: RequestDoc[];
}

function Budget(props: { b: RunDoc['budgets'][number] }) {
  const rows: [string, number, number, (n: number) => string][] = [];
  const { limits, spent } = props.b;
  if (limits.tokens !== undefined) rows.push(['tokens', spent.tokens, limits.tokens, tokens]);
  if (limits.dollars !== undefined) rows.push(['dollars', spent.dollars, limits.dollars, dollars]);
  if (limits.duration !== undefined) rows.push(['duration', spent.duration, limits.duration, duration]);
  return html`<div class="budget"><div class="muted">budget · ${props.b.scope}</div>${rows.map(([name, used, limit, f]) => {
    const pct = Math.min(100, (used / limit) * 100);
    return html`<div class="bar-row"><span>${name}</span><div class="bar"><div class=${pct >= 100 ? 'fill over' : pct >= 80 ? 'fill warn' : 'fill'} style=${`width:${pct}%`}></div></div><span>${f(used)} / ${f(limit)}</span></div>`;
  })}</div>`;
}

interface ModelUsage {
  model: string;
  tasks: string[];
  tokens: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  turns: number;
}

export function RunPage(props: { runId: string }) {
  const [doc, setDoc] = useState<RunDoc | undefined>();
  const [models, setModels] = useState<ModelUsage[]>([]);
  const [error, setError] = useState('');
  const base = `/v1/runs/${encodeURIComponent(props.runId)}`;
  const load = (): void => {
    void getJson<RunDoc>(base).then(setDoc, (e: Error) => setError(e.message));
    void getJson<{ models: ModelUsage[] }>(`/console/api/runs/${encodeURIComponent(props.runId)}/models`).then((m) => setModels(m.models), () => undefined);
  };
  useEffect(() => {
    load();
    const refresh = debounced(load);
    return follow(`${base}/events`, refresh);
  }, [props.runId]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!doc) return html`<p class="muted">loading…</p>`;
  const { run } = doc;
  const open = (task: string): void => void (location.hash = `#/run/${encodeURIComponent(run.id)}/task/${encodeURIComponent(task)}`);
  const pending = doc.operator_requests.filter((r) => r.status === 'pending');
  const end = run.finished_at ? Date.parse(run.finished_at) : Date.now();
  const act = (what: string): void => void postJson(`${base}/${what}`, {}).then(load, (e: Error) => setError(e.message));
  return html`<h1>Run <code>${run.id}</code> <span class=${`badge ${run.status}`} id="run-status">${run.status}</span></h1>
    <div class="facts">
      <span>mission <strong>${run.mission}</strong></span>
      <span>started ${time(run.started_at)}</span>
      <span>finished ${time(run.finished_at)}</span>
      <span>duration ${duration(end - Date.parse(run.started_at))}</span>
      <span>tokens ${tokens(doc.usage.total_tokens)}</span>
      <span>cost ${dollars(doc.usage.cost_usd)}</span>
      <a href=${`#/run/${encodeURIComponent(run.id)}/ledger`}>ledger</a>
      ${['interrupted', 'failed', 'waiting'].includes(run.status) ? html`<button onClick=${() => act('resume')}>Resume</button>` : ''}
      ${run.status === 'running' ? html`<button onClick=${() => act('cancel')}>Cancel</button>` : ''}
    </div>
    ${run.error && html`<p class="error">${run.error}</p>`}
    ${doc.budgets.map((b) => html`<${Budget} b=${b} />`)}
    ${pending.length > 0 && html`<h2>Waiting for</h2><${Requests} runId=${run.id} requests=${pending} onDone=${load} />`}
    <h2>Task graph</h2>
    <div class="graph-box"><${TaskGraph} tasks=${doc.tasks} onOpen=${open} /></div>
    <div class="legend"><span class="edge-key depends">depends_on</span><span class="edge-key route">route (bold: taken)</span><span class="edge-key send">send_to</span></div>
    <h2>Tasks</h2>
    <table>
      <thead><tr><th>Task</th><th>Status</th><th>Progress</th><th>Started</th><th>Duration</th><th>Turns</th><th>Tokens in/out</th><th>Cost</th></tr></thead>
      <tbody>${doc.tasks.map(
        (t) => html`<tr data-task-row=${t.name}>
          <td><a href=${`#/run/${encodeURIComponent(run.id)}/task/${encodeURIComponent(t.name)}`}>${t.name}</a></td>
          <td><span class=${`badge ${t.status}`}>${t.status}</span></td>
          <td>${t.items ? html`<span class="progress">${t.items.completed}/${t.items.total}</span>${t.items.failed ? html` <details class="inline"><summary class="bad">${t.items.failed} failed</summary>${t.items.list.filter((i) => i.status === 'failed').slice(0, 50).map((i) => html`<div>#${i.index}: ${i.error ?? 'failed'}</div>`)}</details>` : ''}` : t.route ? `route → ${t.route}` : ''}${t.error ? html`<div class="bad">${t.error}</div>` : ''}</td>
          <td>${time(t.started_at)}</td>
          <td>${t.started_at ? duration((t.finished_at ? Date.parse(t.finished_at) : Date.now()) - Date.parse(t.started_at)) : '—'}</td>
          <td class="num">${t.usage.model_turns}</td>
          <td class="num">${tokens(t.usage.input_tokens)} / ${tokens(t.usage.output_tokens)}</td>
          <td class="num">${dollars(t.usage.cost_usd)}</td>
        </tr>`,
      )}</tbody>
    </table>
    <h2>By model</h2>
    <table class="models">
      <thead><tr><th>Model</th><th>Tasks</th><th>Turns</th><th>Tokens in/out</th><th>Tokens</th><th>Cost</th></tr></thead>
      <tbody>${models.map(
        (m) => html`<tr data-model=${m.model}><td><code>${m.model}</code></td><td>${m.tasks.join(', ')}</td><td class="num">${m.turns}</td><td class="num">${tokens(m.input_tokens)} / ${tokens(m.output_tokens)}</td><td class="num">${tokens(m.tokens)}</td><td class="num">${dollars(m.cost_usd)}</td></tr>`,
      )}</tbody>
    </table>`;
}
