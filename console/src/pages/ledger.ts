// The ledger: every side-effecting tool call of a run with its status — completed (done once; a
// resume replays its stored result), started and never finished (cut off), pending approval.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api.js';
import { json, time } from '../format.js';
import { html } from '../html.js';

interface Call {
  task: string;
  agent: string;
  call_id: string;
  tool: string;
  status: string;
  idempotent: boolean;
  input: unknown;
  result?: { content?: { type: string; text?: string }[]; isError?: boolean };
  started_at: string;
  finished_at: string | null;
}

export function LedgerPage(props: { runId: string }) {
  const [calls, setCalls] = useState<Call[] | undefined>();
  const [error, setError] = useState('');
  useEffect(() => void getJson<{ calls: Call[] }>(`/console/api/runs/${encodeURIComponent(props.runId)}/ledger`).then((c) => setCalls(c.calls), (e: Error) => setError(e.message)), [props.runId]);
  return html`<h1><a href=${`#/run/${encodeURIComponent(props.runId)}`}>${props.runId}</a> › ledger</h1>
    ${error && html`<p class="error">${error}</p>`}
    <p class="muted">A completed call is never run again: a resume replays its stored result. A started call with no result was cut off.</p>
    <table><thead><tr><th>Task</th><th>Agent</th><th>Tool</th><th>Status</th><th>Started</th><th>Finished</th><th>Input</th><th>Result</th></tr></thead>
    <tbody>${(calls ?? []).map(
      (c) => html`<tr>
        <td>${c.task}</td><td>${c.agent}</td><td><code>${c.tool}</code></td>
        <td><span class=${`badge ${c.status === 'completed' ? 'completed' : c.status === 'started' ? 'failed' : 'waiting'}`}>${c.status === 'started' ? 'never finished' : c.status}</span></td>
        <td>${time(c.started_at)}</td><td>${time(c.finished_at)}</td>
        <td><details><summary>input</summary><pre>${json(c.input)}</pre></details></td>
        <td>${c.result ? html`<details><summary>${c.result.isError ? 'error' : 'result'}</summary><pre>${(c.result.content ?? []).map((p) => p.text ?? `[${p.type}]`).join('\n')}</pre></details>` : '—'}</td>
      </tr>`,
    )}</tbody></table>
    ${calls && calls.length === 0 ? html`<p class="muted">No tool calls.</p>` : ''}`;
}
