// Schedules and triggers: next fires, recent fires (with the runs they started), paused or not; the
// webhook paths of the missions' triggers.
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

export function SchedulesPage() {
  const [schedules, setSchedules] = useState<Schedule[] | undefined>();
  const [fires, setFires] = useState<Record<string, { at: string; run_id: string | null }[]>>({});
  const [triggers, setTriggers] = useState<{ mission: string; path: string }[]>([]);
  const load = async (): Promise<void> => {
    const s = (await getJson<{ schedules: Schedule[] }>('/v1/schedules')).schedules;
    setSchedules(s);
    const got: typeof fires = {};
    for (const x of s) got[x.id] = (await getJson<{ fires: { at: string; run_id: string | null }[] }>(`/console/api/schedules/${encodeURIComponent(x.id)}/fires`)).fires;
    setFires(got);
    setTriggers((await getJson<{ triggers: typeof triggers }>('/console/api/triggers')).triggers);
  };
  useEffect(() => void load(), []);
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
    ${triggers.length === 0 ? html`<p class="muted">No mission has a trigger.</p>` : html`<ul>${triggers.map((t) => html`<li><code>POST ${t.path}</code> → ${t.mission}</li>`)}</ul>`}`;
}
