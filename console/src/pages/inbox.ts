// The inbox: pending approvals and questions of every waiting run; a decision taken here resumes the run.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api.js';
import { html } from '../html.js';
import { Requests, type RequestDoc } from '../requests.js';

export function InboxPage() {
  const [runs, setRuns] = useState<{ run_id: string; mission: string; requests: RequestDoc[] }[] | undefined>();
  const load = (): void => void getJson<{ runs: typeof runs }>('/console/api/inbox').then((r) => setRuns(r.runs));
  useEffect(() => {
    load();
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, []);
  return html`<h1>Inbox</h1>
    ${runs && runs.length === 0 ? html`<p class="muted">Nothing waits for you.</p>` : ''}
    ${(runs ?? []).map((r) => html`<section class="inbox-run" key=${r.run_id}><h2><a href=${`#/run/${encodeURIComponent(r.run_id)}`}>${r.run_id}</a> <span class="muted">${r.mission}</span></h2><${Requests} runId=${r.run_id} requests=${r.requests} onDone=${load} /></section>`)}`;
}
