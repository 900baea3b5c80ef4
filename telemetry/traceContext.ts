// The trace context stored with a run (migration 0016): the W3C traceparent of the run's
// `invoke_workflow` span and when it started. The first process that traces the run writes it; every
// later one (resume, a worker, a run continued after an approval) reads it and continues the trace.

import { RandomIdGenerator } from '@opentelemetry/sdk-trace';
import { z } from 'zod';

export interface StoredTraceContext {
  traceId: string;
  spanId: string;
  /** Epoch milliseconds. */
  startedAt: number;
}

const Stored = z.object({ traceparent: z.string().regex(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/), startedAt: z.number() });

export function newTraceContext(now: number): StoredTraceContext {
  const ids = new RandomIdGenerator();
  return { traceId: ids.generateTraceId(), spanId: ids.generateSpanId(), startedAt: now };
}

export function formatTraceContext(t: StoredTraceContext): string {
  return JSON.stringify({ traceparent: `00-${t.traceId}-${t.spanId}-01`, startedAt: t.startedAt });
}

/** The stored text, or undefined when it is not one we wrote (a new trace is then started). */
export function parseTraceContext(text: string): StoredTraceContext | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = Stored.safeParse(raw);
  if (!parsed.success) return undefined;
  const [, traceId, spanId] = parsed.data.traceparent.split('-');
  return { traceId: traceId!, spanId: spanId!, startedAt: parsed.data.startedAt };
}
