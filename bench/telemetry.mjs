// What OpenTelemetry export costs (telemetry/, docs/concepts/telemetry.md).
//
// 1. Per span, in process: the run's event bus emitting tool.started + tool.finished pairs (one
//    execute_tool span each) under a session, with the telemetry sink subscribed and the real SDK
//    batching to an OTLP/HTTP protobuf receiver on 127.0.0.1 (the export included: the time to flush
//    what is left is added), against the same bus without the sink (telemetry off: nothing is
//    subscribed, nothing loaded). Off is measured twice, so the noise between two identical runs shows.
// 2. The fan-out benchmark (bench/iteration.mjs --only fanout) without and with
//    OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver this script starts: run wall and CPU per item.
//
// Prints figures only; nothing is asserted. Run after building:
//   npm run build && node bench/telemetry.mjs [--spans 20000] [--items 1000] [--only spans|fanout]

import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { EventBus } from '../dist/runtime/kernel/events.js';
import { openExport } from '../dist/telemetry/export.js';
import { RunSpans } from '../dist/telemetry/runSpans.js';
import { telemetrySettings } from '../dist/telemetry/settings.js';
import { newTraceContext } from '../dist/telemetry/traceContext.js';
import { startOtlpReceiver } from '../dist/test/support/otlpReceiver.js';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const SPANS = Number(arg('spans', '20000'));
const ITEMS = arg('items', '1000');
const ONLY = arg('only', '');
const load = () => `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`;

const model = { block: 'fake', key: 'k', provider: 'anthropic', apiModel: 'claude-haiku-4-5' };
const mission = { name: 'bench', commander: { model }, tasks: [], localAgents: [] };
const graph = { agents: [] };
const redactor = { mask: (t) => t, redact: (t) => t };

/** CPU milliseconds (user + system) of this process: on a busy machine, wall time is mostly waiting for a core. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function emitPairs(bus, n) {
  const started = cpuMs();
  for (let i = 0; i < n; i++) {
    const callId = `call_${i}`;
    bus.emit({ type: 'tool.started', task: 't', agent: 'worker', sessionId: 'ses_1', callId, tool: 'builtins.files.read' });
    bus.emit({ type: 'tool.finished', task: 't', agent: 'worker', sessionId: 'ses_1', callId, tool: 'builtins.files.read', isError: false, durationMs: 1, replayed: false });
  }
  return cpuMs() - started;
}

/** The SDK alone: a span with six attributes started and ended, no mapping of ours. */
function rawSpans(out, n) {
  const started = cpuMs();
  for (let i = 0; i < n; i++) {
    const span = out.tracer.startSpan('execute_tool x', { attributes: { a: 'b', c: 'd', e: 'f', g: 'h', i: 'j', k: 'l' } });
    span.setAttribute('z', 'ok');
    span.end();
  }
  return cpuMs() - started;
}

async function spans() {
  const receiver = await startOtlpReceiver();
  try {
    const settings = telemetrySettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_METRICS_EXPORTER: 'none' });
    // Warm-up of both paths, then the measured rounds.
    const offBus = new EventBus();
    emitPairs(offBus, 2000);
    const off1 = emitPairs(offBus, SPANS);
    const off2 = emitPairs(offBus, SPANS);
    const out = openExport(settings, 'bench');
    const bus = new EventBus();
    const run = new RunSpans(out, 'run_bench', graph, mission, newTraceContext(Date.now()), redactor);
    bus.subscribe('telemetry', run.sink);
    bus.emit({ type: 'task.started', task: 't' });
    bus.emit({ type: 'session.started', task: 't', agent: 'worker', sessionId: 'ses_1', model: 'claude-haiku-4-5', tools: [], skills: [], discovery: false, resumed: false });
    emitPairs(bus, 2000);
    await out.flush();
    const before = receiver.spans.length;
    // Rounds of ROUND spans, each flushed (so the queue never drops), the median round kept.
    const ROUND = 2000;
    const rounds = [];
    for (let done = 0; done < SPANS; done += ROUND) {
      const e = emitPairs(bus, ROUND);
      const f0 = cpuMs();
      await out.flush();
      rounds.push({ emit: e, flush: cpuMs() - f0 });
    }
    rounds.sort((a, b) => a.emit + a.flush - (b.emit + b.flush));
    const median = rounds[Math.floor(rounds.length / 2)];
    const emit = (median.emit * SPANS) / ROUND;
    const flush = (median.flush * SPANS) / ROUND;
    const raw = [];
    for (let r = 0; r < 5; r++) {
      raw.push(rawSpans(out, ROUND));
      await out.flush();
    }
    raw.sort((a, b) => a - b);
    const rawUs = ((raw[2] * 1000) / ROUND).toFixed(2);
    // The mapping alone: the same events, spans made by the SDK and handed to its no-op processor.
    const noopOut = openExport(settings, 'bench', new NoopSpanProcessor());
    const noopBus = new EventBus();
    const noopRun = new RunSpans(noopOut, 'run_bench', graph, mission, newTraceContext(Date.now()), redactor);
    noopBus.subscribe('telemetry', noopRun.sink);
    noopBus.emit({ type: 'task.started', task: 't' });
    noopBus.emit({ type: 'session.started', task: 't', agent: 'worker', sessionId: 'ses_1', model: 'claude-haiku-4-5', tools: [], skills: [], discovery: false, resumed: false });
    const mapped = [];
    for (let r = 0; r < 7; r++) mapped.push(emitPairs(noopBus, ROUND));
    mapped.sort((a, b) => a - b);
    const mappedUs = ((mapped[3] * 1000) / ROUND).toFixed(2);
    await out.shutdown();
    const arrived = receiver.spans.length - before - 5 * ROUND;
    const us = (ms) => ((ms * 1000) / SPANS).toFixed(2);
    console.log(`per span, CPU time of this process (${SPANS} execute_tool spans from 2 events each; ${load()}):`);
    console.log(`  telemetry off (no sink): ${us(off1)} µs, again ${us(off2)} µs per span's two events (the noise between identical runs)`);
    console.log(`  telemetry on: ${us(emit)} µs per span in the event path (the SDK alone: ${rawUs} µs per span) + ${us(flush)} µs per span at export (protobuf serialisation, HTTP, and this process's receiver decoding it)`);
    console.log(`  the mapping and span creation alone (no-op processor, no export): ${mappedUs} µs per span`);
    console.log(`  ${arrived} of the ${SPANS} spans received (none dropped)`);
  } finally {
    await receiver.close();
  }
}

function fanoutRun(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./iteration.mjs', import.meta.url)), '--only', 'fanout', '--items', ITEMS], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`iteration.mjs exited ${code}\n${out}`))));
  });
}

async function fanout() {
  const receiver = await startOtlpReceiver();
  try {
    const off = await fanoutRun({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' });
    const on = await fanoutRun({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    console.log(`fan-out (bench/iteration.mjs --only fanout --items ${ITEMS}), tracing off:`);
    console.log(off.trimEnd().replace(/^/gm, '  '));
    console.log('tracing on (OTLP/HTTP protobuf to a receiver on 127.0.0.1, metrics too):');
    console.log(on.trimEnd().replace(/^/gm, '  '));
    const traces = new Set(receiver.spans.map((s) => s.traceId));
    console.log(`  received ${receiver.spans.length} spans in ${traces.size} trace(s), ${receiver.metrics.length} metric batches`);
  } finally {
    await receiver.close();
  }
}

if (!ONLY || ONLY === 'spans') await spans();
if (!ONLY || ONLY === 'fanout') await fanout();
