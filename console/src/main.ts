// The console's shell: a navigation bar and the page the location's hash names
// (#/, #/run/<id>, #/run/<id>/task/<name>, #/run/<id>/ledger, #/inbox, #/schedules).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { RunsPage } from './pages/runs.js';
import { RunPage } from './pages/run.js';
import { TaskPage } from './pages/task.js';
import { LedgerPage } from './pages/ledger.js';
import { InboxPage } from './pages/inbox.js';
import { SchedulesPage } from './pages/schedules.js';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = (): void => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

function page(hash: string): unknown {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] === 'run' && parts[1]) {
    if (parts[2] === 'task' && parts[3]) return html`<${TaskPage} key=${hash} runId=${parts[1]} task=${parts[3]} />`;
    if (parts[2] === 'ledger') return html`<${LedgerPage} key=${hash} runId=${parts[1]} />`;
    return html`<${RunPage} key=${parts[1]} runId=${parts[1]} />`;
  }
  if (parts[0] === 'inbox') return html`<${InboxPage} />`;
  if (parts[0] === 'schedules') return html`<${SchedulesPage} />`;
  return html`<${RunsPage} />`;
}

function App() {
  const hash = useHash();
  const tab = hash.startsWith('#/inbox') ? 'inbox' : hash.startsWith('#/schedules') ? 'schedules' : 'runs';
  return html`<header>
      <strong class="brand">Squadron</strong>
      <nav>
        <a href="#/" class=${tab === 'runs' ? 'active' : ''}>Runs</a>
        <a href="#/inbox" class=${tab === 'inbox' ? 'active' : ''}>Inbox</a>
        <a href="#/schedules" class=${tab === 'schedules' ? 'active' : ''}>Schedules</a>
      </nav>
      <form method="post" action="/logout"><button class="link">Log out</button></form>
    </header>
    <main>${page(hash)}</main>`;
}

render(html`<${App} />`, document.getElementById('app')!);
