// The visible side effects of the crash test's mission: a local HTTP "ledger service" that appends
// one record per POST /record (not idempotent) and answers GET /count?item=X&check=N with how many
// records of X it holds (idempotent), logging every request it sees. A test can stop the CLI while
// one chosen request is in flight, with or without its effect applied, to model a process that died
// before or after the service acted on the request.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLocal, readBody } from './localServer.js';

export interface SinkRecord {
  item: string;
  attempt: number;
}

export interface SinkRequest {
  /** 1-based arrival order over the sink's lifetime. */
  n: number;
  method: string;
  /** Path and query, e.g. `/count?item=alpha&check=1`. */
  url: string;
  body: string;
}

export interface SinkInterception {
  /** Apply the request's effect (a POST's record) before `onArrival` runs. */
  applyEffect: boolean;
  /** Called with the request in flight; it is never answered (the caller kills the client). */
  onArrival: () => void;
}

export interface Sink {
  readonly url: string;
  /** Records in the order they were made: `alpha#1`, … */
  readonly records: SinkRecord[];
  readonly requests: SinkRequest[];
  /** Chooses, per arriving request, whether to hold it and stop the client. */
  intercept: ((request: SinkRequest) => SinkInterception | undefined) | undefined;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const records: SinkRecord[] = [];
  const requests: SinkRequest[] = [];

  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const request: SinkRequest = { n: requests.length + 1, method: req.method ?? 'GET', url: req.url ?? '/', body };
    requests.push(request);
    const held = sink.intercept?.(request);
    if (held) {
      if (held.applyEffect) effect(request);
      held.onArrival();
      return;
    }
    const reply = effect(request);
    res.writeHead(reply.status, { 'content-type': 'text/plain' });
    res.end(reply.text);
  }

  function effect(request: SinkRequest): { status: number; text: string } {
    const url = new URL(request.url, 'http://sink');
    if (request.method === 'POST' && url.pathname === '/record') {
      const record = parseRecord(request.body);
      if (!record) return { status: 400, text: 'expected a JSON body {item, attempt}' };
      records.push(record);
      return { status: 200, text: `recorded ${record.item}#${record.attempt}` };
    }
    if (request.method === 'GET' && url.pathname === '/count') {
      const item = url.searchParams.get('item') ?? '';
      return { status: 200, text: `${item}=${records.filter((r) => r.item === item).length}` };
    }
    return { status: 404, text: `no route ${request.method} ${url.pathname}` };
  }

  const sink: Sink = {
    url: await listenLocal(server),
    records,
    requests,
    intercept: undefined,
    close: () => closeServer(server),
  };
  return sink;
}

function parseRecord(body: string): SinkRecord | undefined {
  try {
    const value = JSON.parse(body) as { item?: unknown; attempt?: unknown };
    if (typeof value.item === 'string' && typeof value.attempt === 'number') return { item: value.item, attempt: value.attempt };
  } catch {
    // fall through: not a record
  }
  return undefined;
}
