// The event → span mapping (telemetry/runSpans.ts) on its own: the run's events on a real event bus,
// spans collected by the SDK's in-memory exporter. Parents, the span events for budget stops,
// approvals, context cuts and loop-guard refusals, statuses, and the root span's stored ids.

import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import type { Mission, MissionGraph } from '../../config/graph.js';
import { EventBus, type RunEvent } from '../../runtime/kernel/events.js';
import type { Redactor } from '../../store/index.js';
import { openExport } from '../../telemetry/export.js';
import { RunSpans } from '../../telemetry/runSpans.js';
import { telemetrySettings } from '../../telemetry/settings.js';

const model = { block: 'fake', key: 'k', provider: 'openai' as const, apiModel: 'gpt-4.1' };
const mission = { name: 'triage', commander: { model }, tasks: [], localAgents: [] } as unknown as Mission;
const graph = { agents: [] } as unknown as MissionGraph;
const SECRET = 'hunter2-secret';
const redactor = { mask: (t: string) => t.split(SECRET).join('[secret]') } as unknown as Redactor;
const stored = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', startedAt: Date.parse('2026-01-01T00:00:00Z') };

function traced(env: Record<string, string> = {}): { bus: EventBus; spans: () => ReadableSpan[]; run: RunSpans } {
  const memory = new InMemorySpanExporter();
  const settings = telemetrySettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_METRICS_EXPORTER: 'none', ...env })!;
  const out = openExport(settings, 'test', new SimpleSpanProcessor({ exporter: memory }));
  const bus = new EventBus((name, error) => {
    throw new Error(`sink ${name} failed: ${String(error)}`);
  });
  const run = new RunSpans(out, 'run_1', graph, mission, stored, redactor);
  bus.subscribe('telemetry', run.sink);
  return { bus, spans: () => memory.getFinishedSpans(), run };
}

const session = (agent: string, sessionId: string, task = 'sort'): RunEvent => ({ type: 'session.started', task, agent, sessionId, model: 'gpt-4.1', tools: [], skills: [], discovery: false, resumed: false });
const named = (spans: ReadableSpan[], name: string): ReadableSpan => {
  const found = spans.filter((s) => s.name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;

describe('run spans', () => {
  it('budget stops, approvals, context cuts and loop-guard refusals are span events where they happened', () => {
    const { bus, spans, run } = traced();
    bus.emit({ type: 'task.started', task: 'sort' });
    bus.emit(session('commander', 'ses_c'));
    bus.emit(session('worker', 'ses_w'));
    bus.emit({ type: 'tool.started', task: 'sort', agent: 'worker', sessionId: 'ses_w', callId: 'c1', tool: 'builtins.http.delete' });
    bus.emit({ type: 'operator.requested', task: 'sort', agent: 'worker', requestId: 'ap_1', kind: 'approval', tool: 'builtins.http.delete', callId: 'c1' });
    bus.emit({ type: 'context.cut', task: 'sort', agent: 'worker', sessionId: 'ses_w', kind: 'compaction', keepFrom: 12, dropped: 10, inputTokens: 150_000, tokenLimit: 100_000 });
    bus.emit({ type: 'loop.detected', task: 'sort', agent: 'worker', sessionId: 'ses_w', guard: 'repeated_call', action: 'stopped', count: 4, tool: 'builtins.http.get', message: 'stopped' });
    bus.emit({ type: 'budget.exceeded', task: 'sort', agent: 'worker', scope: 'mission', kind: 'dollars', spent: 4.9, needed: 0.2, limit: 5, message: 'over' });
    bus.emit({ type: 'task.waiting', task: 'sort', requests: ['ap_1'] });
    // The process stops with the call waiting: what is still open ends then.
    run.endOpen();
    const all = spans();
    const tool = named(all, 'execute_tool builtins.http.delete');
    expect(tool.events.map((e) => e.name)).toEqual(['squadron.operator.requested']);
    expect(tool.events[0]!.attributes).toMatchObject({ 'squadron.operator.kind': 'approval', 'squadron.operator.request_id': 'ap_1' });
    expect(tool.attributes['squadron.tool.outcome']).toBe('interrupted');
    const worker = named(all, 'invoke_agent worker');
    expect(worker.events.map((e) => e.name)).toEqual(['squadron.context.compaction', 'squadron.loop.detected', 'squadron.budget.exceeded']);
    expect(worker.events[2]!.attributes).toMatchObject({ 'squadron.budget.kind': 'dollars', 'squadron.budget.limit': 5 });
    expect(parentOf(worker)).toBe(named(all, 'invoke_agent commander').spanContext().spanId);
    const task = named(all, 'task sort');
    expect(task.attributes['squadron.task.outcome']).toBe('waiting');
    expect(task.events.map((e) => e.name)).toEqual(['squadron.task.waiting']);
    // The task's span hangs off the run's stored span, which this process did not send.
    expect(task.spanContext().traceId).toBe(stored.traceId);
    expect(parentOf(task)).toBe(stored.spanId);
    expect(all.some((s) => s.name === 'invoke_workflow triage')).toBe(false);
  });

  it('the run span is sent with the stored ids and start, failed with the error masked; items share their task span', () => {
    const { bus, spans } = traced({ OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental' });
    bus.emit({ type: 'task.started', task: 'fan' });
    bus.emit(session('commander', 'ses_0', 'fan[0]'));
    bus.emit(session('worker', 'ses_0w', 'fan[0]'));
    bus.emit(session('commander', 'ses_1', 'fan[1]'));
    bus.emit(session('worker', 'ses_1w', 'fan[1]'));
    bus.emit({ type: 'model.turn', task: 'fan[1]', agent: 'worker', sessionId: 'ses_1w', turn: 1, model: 'gpt-4.1', responseModel: 'gpt-4.1-2025-04-14', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 0 }, costUsd: 0.001, durationMs: 250, stopReason: 'max_tokens' });
    bus.emit({ type: 'task.failed', task: 'fan', error: `item 1 failed with ${SECRET}` });
    bus.emit({ type: 'run.finished', runId: 'run_1', status: 'failed', error: `task fan failed: ${SECRET}` });
    const all = spans();
    const root = named(all, 'invoke_workflow triage');
    expect(root.spanContext()).toMatchObject({ traceId: stored.traceId, spanId: stored.spanId });
    expect(parentOf(root)).toBeUndefined();
    expect(root.startTime[0]).toBe(stored.startedAt / 1000);
    expect(root.status).toEqual({ code: 2, message: 'task fan failed: [secret]' });
    const task = named(all, 'task fan');
    expect(task.status.message).toBe('item 1 failed with [secret]');
    const workers = all.filter((s) => s.name === 'invoke_agent worker');
    const commanders = all.filter((s) => s.name === 'invoke_agent commander');
    expect(commanders.every((c) => parentOf(c) === task.spanContext().spanId)).toBe(true);
    // Each item's worker under its own item's commander.
    for (const w of workers) {
      const c = commanders.find((x) => x.attributes['squadron.task.name'] === w.attributes['squadron.task.name'])!;
      expect(parentOf(w)).toBe(c.spanContext().spanId);
    }
    const chat = named(all, 'chat gpt-4.1');
    expect(chat.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.response.model': 'gpt-4.1-2025-04-14',
      'gen_ai.usage.input_tokens': 110,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'gen_ai.response.finish_reasons': ['length'],
    });
    expect(chat.attributes['gen_ai.system']).toBeUndefined();
    expect(chat.endTime[0] * 1000 + chat.endTime[1] / 1e6 - (chat.startTime[0] * 1000 + chat.startTime[1] / 1e6)).toBeCloseTo(250, 0);
  });
});
