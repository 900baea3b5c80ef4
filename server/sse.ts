// Server-sent events of stored run events: `id:` is the event's id in the store, so a client that
// reconnects with Last-Event-ID (or ?after=) gets exactly what it missed, then the live tail.

import { followEvents } from '../api/index.js';
import type { RouteContext } from './routeTypes.js';

const KEEPALIVE_MS = 15_000;

export async function streamEvents(ctx: RouteContext, runId: string | undefined): Promise<void> {
  const { req, res, state, query } = ctx;
  const last = req.headers['last-event-id'] ?? query.get('after') ?? '0';
  const afterId = /^\d+$/.test(String(last)) ? Number(last) : 0;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write(': squadron events\n\n');
  const stop = new AbortController();
  const end = (): void => stop.abort();
  req.on('close', end);
  state.closing.addEventListener('abort', end, { once: true });
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  try {
    for await (const e of followEvents(state.store, { ...(runId !== undefined ? { runId } : {}), afterId, signal: stop.signal })) {
      const data = JSON.stringify({ id: e.id, run_id: e.runId, type: e.type, ...(e.task !== undefined ? { task: e.task } : {}), data: e.data, created_at: e.createdAt });
      res.write(`id: ${e.id}\nevent: ${e.type}\ndata: ${data}\n\n`);
    }
  } finally {
    clearInterval(keepalive);
    state.closing.removeEventListener('abort', end);
    res.end();
  }
}
