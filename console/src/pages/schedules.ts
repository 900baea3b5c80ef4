// Schedules and triggers: next fires, recent fires (with the runs they started), paused or not; the
// webhook paths of the missions' triggers and their recent deliveries (what became of each, its run).
import { useEffect, useState } from 'preact/hooks';
import { getJson, postJson } from '../api.js';
import { time } from '../format.js';
import { html } from '../html.js';

interface Schedule {
  id: string;
  mission: string;
  spec: string;
  timezone: string;
  paused: boolean;
  paused_because?: string;
  next_fires: { at: string; local: string }[];
}

interface Trigger {
  mission: string;
  path: string;
  key: string;
}
interface Delivery {
  at: string;
  mission: string;
  status: string;
  run_id: string | null;
  run_status: string | null;
  reason: string | null;
}

const BADGE: Record<string, string> = { started: 'completed', starting: 'running', duplicate: 'pending', replayed: 'failed', refused: 'failed' };

function Deliveries(props: { list: Delivery[] | undefined }) {
  if (!props.list) return html`<p class="muted">loading…</p>`;
  if (props.list.length === 0) return html`<p class="muted">No delivery yet.</p>`;
  return html`<table class="deliveries"><thead><tr><th>Received</th><th>Mission</th><th>Delivery</th><th>Run</th><th></th></tr></thead>
    <tbody>${props.list.map(
      (d) => html`<tr data-delivery=${d.status}>
        <td>${time(d.at)}</td><td>${d.mission}</td><td><span class=${`badge ${BADGE[d.status] ?? ''}`}>${d.status}</span></td>
        <td>${d.run_id ? html`<a href=${`#/run/${encodeURIComponent(d.run_id)}`}>${d.run_id}</a>${d.run_status ? html` <span class="muted">${d.run_status}</span>` : ''}` : '—'}</td>
        <td class="muted">${d.reason ?? ''}</td>
      </tr>`,
    )}</tbody></table>`;
}

export function SchedulesPage() {
  const [schedules, setSchedules] = useState<Schedule[] | undefined>();
  const [fires, setFires] = useState<Record<string, { at: string; run_id: string | null }[]>>({});
  const [triggers, setTriggers] = useState<Trigger[]>([]);
  const [deliveries, setDeliveries] = useState<Record<string, Delivery[]>>({});
  const load = async (): Promise<void> => {
    const s = (await getJson<{ schedules: Schedule[] }>('/v1/schedules')).schedules;
    setSchedules(s);
    const got: typeof fires = {};
    for (const x of s) got[x.id] = (await getJson<{ fires: { at: string; run_id: string | null }[] }>(`/console/api/schedules/${encodeURIComponent(x.id)}/fires`)).fires;
    setFires(got);
    const t = (await getJson<{ triggers: Trigger[] }>('/console/api/triggers')).triggers;
    setTriggers(t);
    const seen: typeof deliveries = {};
    for (const x of t) seen[x.key] = (await getJson<{ deliveries: Delivery[] }>(`/console/api/deliveries?path=${encodeURIComponent(x.key)}`)).deliveries;
    setDeliveries(seen);
  };
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), 3000);
    return () => clearInterval(timer);
  }, []);
  const toggle = (s: Schedule): void => void postJson(`/v1/schedules/${encodeURIComponent(s.id)}/${s.paused ? 'resume' : 'pause'}`).then(load);
  return html`<h1>Schedules</h1>
    ${schedules && schedules.length === 0 ? html`<p class="muted">No mission of this config has a schedule.</p>` : ''}
    <table><thead><tr><th>Schedule</th><th>Mission</th><th>When</th><th>Next fires</th><th>Recent fires</th><th></th></tr></thead>
    <tbody>${(schedules ?? []).map(
      (s) => html`<tr>
        <td>${s.id}${s.paused ? html` <span class="badge waiting">paused</span>` : ''}</td><td>${s.mission}</td><td><code>${s.spec}</code> <span class="muted">${s.timezone}</span></td>
        <td>${s.next_fires.map((f) => html`<div>${f.local}</div>`)}</td>
        <td>${(fires[s.id] ?? []).map((f) => html`<div>${time(f.at)} ${f.run_id ? html`→ <a href=${`#/run/${encodeURIComponent(f.run_id)}`}>${f.run_id}</a>` : ''}</div>`)}</td>
        <td><button onClick=${() => toggle(s)}>${s.paused ? 'Resume' : 'Pause'}</button></td>
      </tr>`,
    )}</tbody></table>
    <h2>Triggers</h2>
    ${triggers.length === 0
      ? html`<p class="muted">No mission has a trigger.</p>`
      : triggers.map((t) => html`<section class="trigger" data-trigger=${t.key} key=${t.key}><h3><code>POST ${t.path}</code> → ${t.mission}</h3><${Deliveries} list=${deliveries[t.key]} /></section>`)}`;
}
