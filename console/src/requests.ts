// What a run waits on (approvals and questions), with the decisions a person can take from the page:
// approve or deny a call, answer or decline a question; each decision then resumes the run.
import { useState } from 'preact/hooks';
import { postJson } from './api.js';
import { json } from './format.js';
import { html } from './html.js';

export interface RequestDoc {
  id: string;
  kind: 'approval' | 'question';
  task: string;
  agent: string;
  tool?: string;
  input?: unknown;
  question?: { text?: string; question?: string; choices?: string[] } & Record<string, unknown>;
  status: string;
}

export function Requests(props: { runId: string; requests: RequestDoc[]; onDone: () => void }) {
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const act = async (id: string, path: string, body: unknown): Promise<void> => {
    setBusy(id);
    setError('');
    try {
      await postJson(`/v1/runs/${encodeURIComponent(props.runId)}/${path}`, body);
      await postJson(`/v1/runs/${encodeURIComponent(props.runId)}/resume`, {});
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy('');
      props.onDone();
    }
  };
  if (props.requests.length === 0) return null;
  return html`<div class="requests">
    ${error && html`<p class="error">${error}</p>`}
    ${props.requests.map(
      (r) => html`<div class="request" data-request=${r.id} key=${r.id}>
        <div><strong>${r.kind === 'approval' ? 'Approve' : 'Question'}</strong> · task ${r.task} · ${r.agent}${r.tool ? html` · tool <code>${r.tool}</code>` : ''}</div>
        ${r.kind === 'approval'
          ? html`<pre>${json(r.input)}</pre>
              <button class="approve" disabled=${busy !== ''} onClick=${() => void act(r.id, 'approve', { calls: [r.id], reason: 'approved in the console' })}>Approve</button>
              <button class="deny" disabled=${busy !== ''} onClick=${() => void act(r.id, 'deny', { call: r.id, reason: 'denied in the console' })}>Deny</button>`
          : html`<pre>${json(r.question)}</pre>
              <input placeholder="answer" value=${answers[r.id] ?? ''} onInput=${(e: Event) => setAnswers({ ...answers, [r.id]: (e.target as HTMLInputElement).value })} />
              <button class="answer" disabled=${busy !== '' || !(answers[r.id] ?? '').trim()} onClick=${() => void act(r.id, 'answer', { question: r.id, text: answers[r.id] })}>Answer</button>
              <button class="deny" disabled=${busy !== ''} onClick=${() => void act(r.id, 'answer', { question: r.id, decline: true, reason: 'declined in the console' })}>Decline</button>`}
      </div>`,
    )}
  </div>`;
}
