// An OTLP/HTTP receiver for tests, on 127.0.0.1 (port 0): accepts POST /v1/traces and /v1/metrics in
// protobuf (application/x-protobuf) and JSON (application/json), decodes what arrives (otlpProto.ts
// for protobuf; the OTLP JSON mapping, hex ids, for JSON) into one shape, and lets a test wait for spans.

import { createServer, type IncomingMessage } from 'node:http';
import { closeServer, listenLocal } from './localServer.js';
import { decodeMetricsRequest, decodeTraceRequest, type AttrValue, type DecodedMetric, type DecodedSpan } from './otlpProto.js';

export interface OtlpReceiver {
  url: string;
  spans: DecodedSpan[];
  metrics: DecodedMetric[];
  /** The content type of each request, in arrival order (`traces application/x-protobuf`). */
  requests: string[];
  /** Resolves once `done(spans)` holds; rejects after `timeoutMs` with what arrived. */
  waitFor(done: (spans: DecodedSpan[]) => boolean, timeoutMs?: number): Promise<DecodedSpan[]>;
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

interface JsonAny {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAny[] };
}
type JsonKv = { key: string; value?: JsonAny };

function jsonValue(v: JsonAny | undefined): AttrValue {
  if (v === undefined) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(jsonValue);
  return null;
}

const jsonAttrs = (list: JsonKv[] | undefined): Record<string, AttrValue> => Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: JsonKv[];
  events?: { name: string; attributes?: JsonKv[] }[];
  status?: { code?: number; message?: string };
}

function decodeJsonTraces(text: string): DecodedSpan[] {
  const req = JSON.parse(text) as { resourceSpans?: { resource?: { attributes?: JsonKv[] }; scopeSpans?: { scope?: { name?: string }; spans?: JsonSpan[] }[] }[] };
  return (req.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        name: s.name,
        kind: s.kind ?? 0,
        startNanos: BigInt(s.startTimeUnixNano),
        endNanos: BigInt(s.endTimeUnixNano),
        attributes: jsonAttrs(s.attributes),
        events: (s.events ?? []).map((e) => ({ name: e.name, attributes: jsonAttrs(e.attributes) })),
        status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
        resource: jsonAttrs(rs.resource?.attributes),
        scope: ss.scope?.name ?? '',
      })),
    ),
  );
}

function decodeJsonMetrics(text: string): DecodedMetric[] {
  type Point = { attributes?: JsonKv[]; count?: string | number; sum?: number };
  const req = JSON.parse(text) as { resourceMetrics?: { scopeMetrics?: { metrics?: { name: string; unit?: string; histogram?: { dataPoints?: Point[] } }[] }[] }[] };
  return (req.resourceMetrics ?? []).flatMap((rm) =>
    (rm.scopeMetrics ?? []).flatMap((sm) =>
      (sm.metrics ?? []).map((m) => ({
        name: m.name,
        unit: m.unit ?? '',
        points: (m.histogram?.dataPoints ?? []).map((p) => ({ attributes: jsonAttrs(p.attributes), count: Number(p.count ?? 0), sum: p.sum ?? 0 })),
      })),
    ),
  );
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: DecodedSpan[] = [];
  const metrics: DecodedMetric[] = [];
  const requests: string[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    void body(req).then((raw) => {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
      const signal = req.url === '/v1/traces' ? 'traces' : req.url === '/v1/metrics' ? 'metrics' : undefined;
      if (req.method !== 'POST' || signal === undefined || (type !== 'application/x-protobuf' && type !== 'application/json')) {
        res.writeHead(404).end();
        return;
      }
      requests.push(`${signal} ${type}`);
      try {
        if (signal === 'traces') spans.push(...(type === 'application/json' ? decodeJsonTraces(raw.toString('utf8')) : decodeTraceRequest(raw)));
        else metrics.push(...(type === 'application/json' ? decodeJsonMetrics(raw.toString('utf8')) : decodeMetricsRequest(raw)));
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
        return;
      }
      // An empty Export*ServiceResponse: all accepted.
      if (type === 'application/json') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      for (const wake of waiters) wake();
    });
  });
  const url = await listenLocal(server);
  return {
    url,
    spans,
    metrics,
    requests,
    waitFor(done, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!done(spans)) return;
          cleanup();
          resolve(spans);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`spans never matched; received: ${spans.map((s) => s.name).join(', ')}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => closeServer(server),
  };
}
