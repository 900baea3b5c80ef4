// The console's calls to its server: the /v1 API and /console/api, with the session cookie. A 401
// means the session ended: back to the login page.

export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (res.status === 401) {
    location.assign('/login');
    throw new Error('not logged in');
  }
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `${res.status}`);
  return body;
}

export async function postJson<T>(path: string, body: unknown = {}): Promise<T> {
  const res = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status === 401) {
    location.assign('/login');
    throw new Error('not logged in');
  }
  const text = await res.text();
  const parsed = (text ? JSON.parse(text) : {}) as T & { error?: string };
  if (!res.ok) throw new Error(parsed.error ?? `${res.status}`);
  return parsed;
}

/** Calls `onEvent` for each event of the stream (debounce in the caller); returns the closer. */
export function follow(path: string, onEvent: (e: { type: string; task?: string; data: unknown }) => void): () => void {
  const source = new EventSource(path, { withCredentials: true });
  const handler = (m: MessageEvent<string>): void => {
    try {
      onEvent(JSON.parse(m.data) as { type: string; task?: string; data: unknown });
    } catch {
      /* a keepalive or a malformed line: nothing to show */
    }
  };
  source.onmessage = handler;
  for (const t of ['run.started', 'run.finished', 'task.started', 'task.completed', 'task.failed', 'task.cancelled', 'task.waiting', 'task.skipped', 'task.retried', 'item.started', 'item.finished', 'operator.requested', 'operator.decided', 'route.chosen', 'model.turn', 'tool.started', 'tool.finished', 'budget.exceeded']) {
    source.addEventListener(t, handler as EventListener);
  }
  return () => source.close();
}

/** Debounces a refresh: many events in a burst make one reload. */
export function debounced(fn: () => void, ms = 250): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      fn();
    }, ms);
  };
}
