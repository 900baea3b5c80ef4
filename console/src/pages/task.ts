// A task: each of its sessions (the commander's and each agent's) as a conversation in order —
// messages, tool calls with their input and result (large results collapsed), compaction markers and
// timings. Read a page of 100 messages at a time as the reader scrolls: a session of 10,000 messages
// is never loaded at once.
import { useEffect, useRef, useState } from 'preact/hooks';
import { getJson } from '../api.js';
import { json, time } from '../format.js';
import { html } from '../html.js';
import type { SessionEntry } from '../../../api/consoleData.js';

/** A session as the console's data route lists it (api/consoleData.ts, the one definition). */
type Session = SessionEntry;
type Part =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId: string; isError: boolean; content: { type: string; text?: string }[] }
  | { type: 'image'; mediaType: string };
interface Message {
  seq: number;
  role: string;
  turn: number;
  kind: string | null;
  created_at: string;
  parts: Part[];
}
interface Page {
  total: number;
  messages: Message[];
  calls: Record<string, { status: string; started_at: string; finished_at: string | null }>;
}

const PAGE = 100;
const LARGE = 2000;

function Collapsible(props: { text: string; cls: string }) {
  if (props.text.length <= LARGE) return html`<pre class=${props.cls}>${props.text}</pre>`;
  return html`<details class="large"><summary>${props.text.length.toLocaleString()} characters (show)</summary><pre class=${props.cls}>${props.text}</pre></details>`;
}

/** A result stored whole (its transcript shows a preview and the handle): fetched when asked for. */
function StoredResult(props: { runId: string; session: string; handle: string }) {
  const [text, setText] = useState<string | undefined>();
  const [error, setError] = useState('');
  const load = (): void =>
    void getJson<{ text: string; bytes: number }>(`/console/api/runs/${encodeURIComponent(props.runId)}/results/${encodeURIComponent(props.session)}/${props.handle}`).then(
      (r) => setText(r.text),
      (e: Error) => setError(e.message),
    );
  if (text !== undefined) return html`<${Collapsible} text=${text} cls="stored" />`;
  return html`<div class="stored-result"><button onClick=${load}>Load stored result ${props.handle}</button>${error && html` <span class="error">${error}</span>`}</div>`;
}

function PartView(props: { part: Part; calls: Page['calls']; runId: string; session: string }) {
  const p = props.part;
  switch (p.type) {
    case 'text':
      return html`<div class="text">${p.text}</div>`;
    case 'thinking':
      return html`<details class="thinking"><summary>thinking</summary><pre>${p.text}</pre></details>`;
    case 'tool_use': {
      const call = props.calls[p.id];
      const took = call?.finished_at ? `${Date.parse(call.finished_at) - Date.parse(call.started_at)} ms` : '';
      return html`<div class="tool-call" data-tool=${p.name}><div class="tool-head">tool call <code>${p.name}</code> <span class="muted">${p.id}${call ? ` · ${call.status}${took ? ` · ${took}` : ''}` : ''}</span></div><${Collapsible} text=${json(p.input)} cls="input" /></div>`;
    }
    case 'tool_result': {
      const text = p.content.map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type}]`)).join('\n');
      const handles = [...new Set([...text.matchAll(/\[stored result (res_[0-9a-f]{16})/g)].map((m) => m[1]!))];
      return html`<div class=${`tool-result${p.isError ? ' error-result' : ''}`}><div class="tool-head">result of <span class="muted">${p.toolUseId}</span>${p.isError ? ' (error)' : ''}</div><${Collapsible} text=${text} cls="result" />${handles.map((h) => html`<${StoredResult} runId=${props.runId} session=${props.session} handle=${h} />`)}</div>`;
    }
    default:
      return html`<div class="muted">[${p.type}]</div>`;
  }
}

function Transcript(props: { runId: string; session: Session }) {
  const [messages, setMessages] = useState<Message[]>([]);
  const [calls, setCalls] = useState<Page['calls']>({});
  const [total, setTotal] = useState(props.session.messages);
  const [loading, setLoading] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);
  const next = messages.length === 0 ? 1 : messages[messages.length - 1]!.seq + 1;
  const more = (): void => {
    if (loading) return;
    setLoading(true);
    void getJson<Page>(`/console/api/runs/${encodeURIComponent(props.runId)}/transcript/${encodeURIComponent(props.session.id)}?from=${next}&limit=${PAGE}`)
      .then((p) => {
        setMessages((m) => [...m, ...p.messages]);
        setCalls((c) => ({ ...c, ...p.calls }));
        setTotal(p.total);
      })
      .finally(() => setLoading(false));
  };
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && next <= total && more());
    io.observe(el);
    return () => io.disconnect();
  }, [next, total, loading]);
  return html`<div class="transcript" data-session=${props.session.id}>
    ${messages.map(
      (m) => html`<div class=${`msg ${m.role}${m.kind ? ` kind-${m.kind}` : ''}`} key=${m.seq}>
        <div class="msg-head"><span>#${m.seq} · ${m.role}${m.kind ? ` · ${m.kind}` : ''} · turn ${m.turn}</span><span class="muted">${time(m.created_at)}</span></div>
        ${m.kind && /compact|prun|cut|loop/.test(m.kind) ? html`<div class="marker">— ${m.kind} —</div>` : ''}
        ${m.parts.map((p) => html`<${PartView} part=${p} calls=${calls} runId=${props.runId} session=${props.session.id} />`)}
      </div>`,
    )}
    <div ref=${sentinel} class="sentinel muted">${next <= total ? (loading ? 'loading…' : `${messages.length} of ${total} messages`) : `${total} messages`}</div>
  </div>`;
}

export function TaskPage(props: { runId: string; task: string }) {
  const [sessions, setSessions] = useState<Session[] | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    void getJson<{ sessions: Session[] }>(`/console/api/runs/${encodeURIComponent(props.runId)}/sessions?task=${encodeURIComponent(props.task)}`).then(
      (s) => {
        setSessions(s.sessions);
        setOpen(s.sessions[0]?.id);
      },
      (e: Error) => setError(e.message),
    );
  }, [props.runId, props.task]);
  const current = sessions?.find((s) => s.id === open);
  return html`<h1><a href=${`#/run/${encodeURIComponent(props.runId)}`}>${props.runId}</a> › task ${props.task}</h1>
    ${error && html`<p class="error">${error}</p>`}
    <div class="sessions">${(sessions ?? []).map(
      (s) => html`<button class=${s.id === open ? 'tab active' : 'tab'} onClick=${() => setOpen(s.id)}>${s.role} · ${s.agent}${s.task !== props.task ? ` · ${s.task.slice(props.task.length)}` : ''} <span class="muted">${s.model} · ${s.messages} msgs · ${s.status}</span></button>`,
    )}</div>
    ${sessions && sessions.length === 0 ? html`<p class="muted">No conversation yet.</p>` : ''}
    ${current && html`<${Transcript} key=${current.id} runId=${props.runId} session=${current} />`}`;
}
