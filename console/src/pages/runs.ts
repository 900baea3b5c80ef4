// Runs: a page of stored runs (filters by mission, status and start date are applied by the server,
// so a store of 10,000 runs sends 100 rows), refreshed live while it is open.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api.js';
import { dollars, duration, time, tokens } from '../format.js';
import { html } from '../html.js';

interface RunRow {
  id: string;
  mission: string;
  status: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  tokens: number;
  cost_usd: number;
  tasks: { total: number; completed: number; failed: number };
  waiting_for?: { kind: string; task: string; tool?: string }[];
}
interface Page {
  has_more: boolean;
  missions: string[];
  runs: RunRow[];
}

const PAGE = 100;
const STATUSES = ['running', 'waiting', 'completed', 'failed', 'interrupted', 'cancelled', 'queued'];

export function RunsPage() {
  const [filters, setFilters] = useState({ mission: '', status: '', since: '', until: '' });
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<Page | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    const q = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
    const load = (): void =>
      void getJson<Page>(`/console/api/runs?${q}`).then(
        (p) => live && (setPage(p), setError('')),
        (e: Error) => live && setError(e.message),
      );
    load();
    // Live: the list is read again every two seconds while the page is open.
    const timer = setInterval(load, 2000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [filters, offset]);
  const set = (k: keyof typeof filters) => (e: Event) => {
    setOffset(0);
    setFilters({ ...filters, [k]: (e.target as HTMLInputElement).value });
  };
  return html`<h1>Runs</h1>
    <div class="filters">
      <label>Mission <select value=${filters.mission} onChange=${set('mission')} name="mission"><option value="">all</option>${(page?.missions ?? []).map((m) => html`<option>${m}</option>`)}</select></label>
      <label>Status <select value=${filters.status} onChange=${set('status')} name="status"><option value="">all</option>${STATUSES.map((s) => html`<option>${s}</option>`)}</select></label>
      <label>From <input type="date" value=${filters.since} onChange=${set('since')} name="since" /></label>
      <label>Before <input type="date" value=${filters.until} onChange=${set('until')} name="until" /></label>
      <span class="muted">${page ? '' : 'loading…'}</span>
    </div>
    ${error && html`<p class="error">${error}</p>`}
    <table class="runs">
      <thead><tr><th>Run</th><th>Mission</th><th>Status</th><th>Started</th><th>Finished</th><th>Duration</th><th>Tasks</th><th>Tokens</th><th>Cost</th><th>Waiting for</th></tr></thead>
      <tbody>
        ${(page?.runs ?? []).map(
          (r) => html`<tr key=${r.id} data-run=${r.id}>
            <td><a href=${`#/run/${encodeURIComponent(r.id)}`}>${r.id}</a></td>
            <td>${r.mission}</td>
            <td><span class=${`badge ${r.status}`}>${r.status}</span></td>
            <td>${time(r.started_at)}</td>
            <td>${time(r.finished_at)}</td>
            <td>${duration(r.duration_ms)}</td>
            <td>${r.tasks.completed}/${r.tasks.total}${r.tasks.failed ? html` <span class="bad">${r.tasks.failed} failed</span>` : ''}</td>
            <td class="num">${tokens(r.tokens)}</td>
            <td class="num">${dollars(r.cost_usd)}</td>
            <td>${(r.waiting_for ?? []).map((w) => html`<div>${w.kind} · ${w.task}${w.tool ? ` · ${w.tool}` : ''}</div>`)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    <div class="pager">
      <button disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>Newer</button>
      <span id="shown">${page && page.runs.length > 0 ? `runs ${offset + 1}–${offset + page.runs.length}${page.has_more ? ' (more older)' : ''}` : page ? 'no runs' : ''}</span>
      <button disabled=${!page || !page.has_more} onClick=${() => setOffset(offset + PAGE)}>Older</button>
    </div>`;
}
