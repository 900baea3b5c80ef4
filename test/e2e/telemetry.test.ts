// End-to-end: OpenTelemetry export through the CLI, received by an OTLP/HTTP receiver the test starts
// on 127.0.0.1 that decodes what arrives (protobuf and JSON). The span tree of a run (workflow → task →
// commander → worker → chat / execute_tool), its GenAI attributes and metrics; the standard OTEL_*
// variables; and one trace per run across processes: a run killed with SIGKILL and resumed, and a run
// continued after an approval.

import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, openRunDb, removeProjects, runThenResume, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import type { DecodedSpan } from '../support/otlpProto.js';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlpReceiver.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

function project(server: FakeModelServer, telemetry: string, taskExtra = ''): string {
  return writeProject({
    'main.hcl': `${fakeModelBlock(server)}
${telemetry}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "publish" {
    objective = "Write the note."
    tools     = [builtins.files.write]
    ${taskExtra}
  }
}
`,
  });
}

const block = (receiver: OtlpReceiver, extra = ''): string => `telemetry {\n  endpoint = "${receiver.url}"\n  ${extra}\n}`;
const write = toolCall('builtins_files_write', { path: 'note.txt', content: 'hello' });

function publishScript(onWorker?: (req: FakeRequest) => void) {
  return turnScript({
    [commanderOf('publish')]: [callAgent('worker', 'Write the note'), (req: FakeRequest) => taskComplete(`worker said: ${lastToolResult(req)}`)],
    [workerOf('publish')]: [
      (req: FakeRequest) => {
        onWorker?.(req);
        return write;
      },
      (req: FakeRequest) => ({ text: `result: ${lastToolResult(req)}` }),
    ],
  });
}

function storedRun(dir: string): { id: string; trace_context: string | null; status: string } {
  const db = openRunDb(dir);
  try {
    return db.prepare('SELECT id, trace_context, status FROM runs').get() as { id: string; trace_context: string | null; status: string };
  } finally {
    db.close();
  }
}

const byName = (spans: DecodedSpan[], name: string): DecodedSpan[] => spans.filter((s) => s.name === name);
const one = (spans: DecodedSpan[], name: string): DecodedSpan => {
  const found = byName(spans, name);
  expect(found.map((s) => s.name), `one span named ${name} among ${spans.map((s) => s.name).join(', ')}`).toEqual([name]);
  return found[0]!;
};
const hasRoot = (spans: DecodedSpan[]): boolean => spans.some((s) => s.name === 'invoke_workflow m');

describe('telemetry export', () => {
  it('sends the run as one span tree over OTLP/HTTP protobuf, with GenAI attributes and metrics', async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withFakeModelServer(publishScript().respond, async (server) => {
        const dir = project(server, block(receiver, 'service_name = "notes"\n  resource_attributes = { "deployment.environment" = "test" }'));
        const r = await runCli(['run', dir], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        const run = storedRun(dir);
        // Sent before the CLI exited: nothing to wait for.
        const spans = [...receiver.spans];
        expect(receiver.requests.every((t) => t.endsWith('application/x-protobuf'))).toBe(true);
        const root = one(spans, 'invoke_workflow m');
        expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root.traceId]));
        expect(JSON.parse(run.trace_context!)).toMatchObject({ traceparent: `00-${root.traceId}-${root.spanId}-01` });
        expect(root.parentSpanId).toBe('');
        expect(root.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'm', 'squadron.run.id': run.id, 'squadron.run.status': 'completed' });
        expect(root.resource).toMatchObject({ 'service.name': 'notes', 'deployment.environment': 'test' });
        expect(root.scope).toBe('squadron');

        const task = one(spans, 'task publish');
        expect(task.parentSpanId).toBe(root.spanId);
        const commander = one(spans, 'invoke_agent commander');
        expect(commander.parentSpanId).toBe(task.spanId);
        const worker = one(spans, 'invoke_agent worker');
        expect(worker.parentSpanId).toBe(commander.spanId);
        expect(worker.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'worker', 'gen_ai.provider.name': 'anthropic', 'gen_ai.system': 'anthropic' });

        const chats = spans.filter((s) => s.name.startsWith('chat '));
        expect(chats).toHaveLength(4);
        expect(chats.filter((c) => c.parentSpanId === commander.spanId)).toHaveLength(2);
        expect(chats.filter((c) => c.parentSpanId === worker.spanId)).toHaveLength(2);
        const chat = chats[0]!;
        expect(chat.kind).toBe(3); // CLIENT
        expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic' });
        expect(chat.name).toBe(`chat ${chat.attributes['gen_ai.request.model']}`);
        for (const key of ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens', 'gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_creation.input_tokens', 'squadron.cost_usd']) {
          expect(typeof chat.attributes[key], key).toBe('number');
        }
        expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
        expect(chat.attributes['gen_ai.response.model']).toBeTypeOf('string');
        expect(chats.map((c) => (c.attributes['gen_ai.response.finish_reasons'] as string[])[0]).sort()).toEqual(['stop', 'tool_call', 'tool_call', 'tool_call']);

        const tool = one(spans, 'execute_tool builtins.files.write');
        expect(tool.parentSpanId).toBe(worker.spanId);
        expect(tool.attributes).toMatchObject({
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'builtins.files.write',
          'gen_ai.tool.type': 'function',
          'squadron.tool.source': 'builtin',
          'squadron.tool.outcome': 'ok',
        });
        expect(tool.attributes['gen_ai.tool.call.id']).toBeTypeOf('string');
        // Content is opt-in: no tool arguments without it.
        expect(spans.some((s) => 'gen_ai.tool.call.arguments' in s.attributes)).toBe(false);
        // call_agent is the commander's tool call, under the commander.
        expect(one(spans, 'execute_tool call_agent').parentSpanId).toBe(commander.spanId);

        const names = receiver.metrics.map((m) => m.name);
        expect(names).toContain('gen_ai.client.operation.duration');
        expect(names).toContain('gen_ai.client.token.usage');
        const tokens = receiver.metrics.find((m) => m.name === 'gen_ai.client.token.usage')!;
        expect(tokens.points.map((p) => p.attributes['gen_ai.token.type']).sort()).toEqual(['input', 'output']);
        expect(tokens.points.every((p) => p.count === 4)).toBe(true);
      });
    } finally {
      await receiver.close();
    }
  });

  it('reads the standard OTEL_* variables: JSON over HTTP, service name, resource attributes, the semconv opt-in', async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withFakeModelServer(publishScript().respond, async (server) => {
        const dir = project(server, '');
        const env = {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: 'from-env',
          OTEL_RESOURCE_ATTRIBUTES: 'team=agents,region=eu%2Dwest',
          OTEL_SEMCONV_STABILITY_OPT_IN: 'http,gen_ai_latest_experimental',
        };
        const r = await runCli(['run', dir], { cwd: dir, env });
        expect(r.code, r.stderr).toBe(0);
        expect(receiver.requests.length).toBeGreaterThan(0);
        expect(receiver.requests.every((t) => t.endsWith('application/json'))).toBe(true);
        const root = one(receiver.spans, 'invoke_workflow m');
        expect(root.resource).toMatchObject({ 'service.name': 'from-env', team: 'agents', region: 'eu-west' });
        const worker = one(receiver.spans, 'invoke_agent worker');
        expect(worker.parentSpanId).toBe(one(receiver.spans, 'invoke_agent commander').spanId);
        // Only the latest conventions: no gen_ai.system beside gen_ai.provider.name.
        expect(worker.attributes['gen_ai.provider.name']).toBe('anthropic');
        expect(receiver.spans.some((s) => 'gen_ai.system' in s.attributes)).toBe(false);
        expect(receiver.metrics.map((m) => m.name)).toContain('gen_ai.client.operation.duration');
      });
    } finally {
      await receiver.close();
    }
  });

  it('sends nothing and stores no trace context when no endpoint is configured', async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withFakeModelServer(publishScript().respond, async (server) => {
        const dir = project(server, 'telemetry {\n  enabled  = false\n  endpoint = "' + receiver.url + '"\n}');
        const r = await runCli(['run', dir], { cwd: dir, env: { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined } });
        expect(r.code, r.stderr).toBe(0);
        expect(storedRun(dir).trace_context).toBeNull();
        expect(receiver.requests).toEqual([]);
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('span events', () => {
  it('a budget that stops the run is an event on the span of the session whose call it refused', async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withFakeModelServer(publishScript().respond, async (server) => {
        // A token budget smaller than any request: the commander's first call is never sent.
        const dir = project(server, block(receiver), 'budget {\n      tokens = 10\n    }');
        const r = await runCli(['run', dir], { cwd: dir });
        expect(r.code, r.stdout + r.stderr).toBe(3);
        expect(server.requests).toHaveLength(0);
        const stops = receiver.spans.flatMap((s) => s.events.filter((e) => e.name === 'squadron.budget.exceeded').map((e) => ({ span: s, e })));
        expect(stops).toHaveLength(1);
        expect(stops[0]!.span.name).toBe('invoke_agent commander');
        expect(stops[0]!.e.attributes).toMatchObject({ 'squadron.budget.scope': 'publish', 'squadron.budget.kind': 'tokens', 'squadron.budget.limit': 10 });
        // Stopped is not over (a raised budget resumes it): the run's span is not sent yet.
        expect(hasRoot(receiver.spans)).toBe(false);
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('squadron docs telemetry', () => {
  it('prints the telemetry page: the block, the variables, the pinned conventions', async () => {
    const r = await runCli(['docs', 'telemetry'], { env: { COLUMNS: '200' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('semantic-conventions-genai v0.1.0');
    expect(r.stdout).toContain('OTEL_EXPORTER_OTLP_ENDPOINT');
    expect(r.stdout).toContain('capture_content');
  });
});

describe('content capture', () => {
  it('sends tool arguments, results and replies only when opted in, and never a secret', async () => {
    const SECRET = 'sk-live-7f3a9c2e41';
    const receiver = await startOtlpReceiver();
    try {
      const leaky = toolCall('builtins_files_write', { path: 'note.txt', content: `token ${SECRET}` });
      const script = turnScript({
        [commanderOf('publish')]: [callAgent('worker', 'Write the note'), (req: FakeRequest) => taskComplete(`worker said: ${lastToolResult(req)}`)],
        [workerOf('publish')]: [leaky, { text: `wrote the note with ${SECRET}` }],
      });
      await withFakeModelServer(script.respond, async (server) => {
        const dir = project(server, `variable "token" {\n  secret = true\n}\n${block(receiver, 'capture_content = true')}`);
        const r = await runCli(['run', dir], { cwd: dir, env: { SQUADRON_VAR_token: SECRET } });
        expect(r.code, r.stderr).toBe(0);
        const tool = one(receiver.spans, 'execute_tool builtins.files.write');
        const args = JSON.parse(tool.attributes['gen_ai.tool.call.arguments'] as string) as { path: string; content: string };
        expect(args.path).toBe('note.txt');
        expect(args.content).not.toContain(SECRET);
        expect(tool.attributes['gen_ai.tool.call.result']).toBeTypeOf('string');
        const replies = receiver.spans.filter((s) => s.name.startsWith('chat ') && s.attributes['gen_ai.output.messages'] !== undefined);
        expect(replies).toHaveLength(4);
        const last = replies.find((s) => (s.attributes['gen_ai.output.messages'] as string).includes('wrote the note with'))!;
        expect(JSON.parse(last.attributes['gen_ai.output.messages'] as string)).toMatchObject([{ role: 'assistant', parts: [{ type: 'text' }], finish_reason: 'stop' }]);
        // Nowhere, in any attribute or event of any span.
        expect(JSON.stringify(receiver.spans, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(SECRET);
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('MCP tool calls', () => {
  it('carry the MCP attributes on their execute_tool span and its trace context in params._meta', async () => {
    const receiver = await startOtlpReceiver();
    try {
      let received = '';
      const script = turnScript({
        [commanderOf('probe')]: [callAgent('worker', 'Read the meta'), (req: FakeRequest) => taskComplete(`meta: ${lastToolResult(req)}`)],
        [workerOf('probe')]: [
          toolCall('mcp_tr_meta', {}),
          (req: FakeRequest) => {
            received = lastToolResult(req);
            return { text: received };
          },
        ],
      });
      await withFakeModelServer(script.respond, async (server) => {
        const dir = writeProject({
          'main.hcl': `${fakeModelBlock(server)}
${block(receiver)}
mcp "tr" {
  command = "${process.execPath}"
  args    = ["${MCP_STDIO_SERVER_PATH}"]
  env     = { MCP_TEST_TRACING = "1" }
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "probe" {
    objective = "Read the meta."
    tools     = [mcp.tr.meta]
  }
}
`,
        });
        const r = await runCli(['run', dir], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        const tool = one(receiver.spans, 'execute_tool mcp.tr.meta');
        expect(tool.kind).toBe(3); // CLIENT: the call leaves the process
        expect(tool.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.type': 'extension', 'squadron.tool.source': 'mcp', 'squadron.mcp.server': 'tr' });
        // What the server received, as the worker's model was told it.
        const meta = JSON.parse(/\{.*\}/s.exec(received)![0]) as { traceparent?: string };
        expect(meta.traceparent).toBe(`00-${tool.traceId}-${tool.spanId}-01`);
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('one trace per run', () => {
  it('a run killed with SIGKILL and resumed is one trace: the resume continues under the stored root span', async () => {
    const receiver = await startOtlpReceiver();
    let child: ChildProcess | undefined;
    let killed = false;
    try {
      const script = publishScript(() => {
        if (!killed) {
          killed = true;
          child?.kill('SIGKILL');
        }
      });
      await withFakeModelServer(script.respond, async (server) => {
        const dir = project(server, block(receiver));
        const { first, resumed } = await runThenResume(dir, (c) => (child = c));
        expect(first.signal).toBe('SIGKILL');
        expect(resumed.code, resumed.stderr).toBe(0);
        const run = storedRun(dir);
        const stored = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec((JSON.parse(run.trace_context!) as { traceparent: string }).traceparent)!;
        const spans = [...receiver.spans];
        // Whatever the killed process had sent, and all the resume sent: one trace.
        expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([stored[1]]));
        const root = one(spans, 'invoke_workflow m');
        expect(root.spanId).toBe(stored[2]);
        // The root span starts when the first process started the run, before anything the resume did.
        const resumePid = byName(spans, 'task publish').at(-1)!.resource['process.pid'];
        const resumedSpans = spans.filter((s) => s.resource['process.pid'] === resumePid && s !== root);
        expect(resumedSpans.length).toBeGreaterThan(0);
        expect(resumedSpans.every((s) => s.startNanos >= root.startNanos)).toBe(true);
        const task = byName(spans, 'task publish').at(-1)!;
        expect(task.parentSpanId).toBe(root.spanId);
        const worker = resumedSpans.find((s) => s.name === 'invoke_agent worker')!;
        expect(worker.attributes['squadron.session.resumed']).toBe(true);
        expect(one(spans, 'execute_tool builtins.files.write').parentSpanId).toBe(worker.spanId);
      });
    } finally {
      await receiver.close();
    }
  });

  it('a run that waits for an approval and is continued after approve is one trace, the wait an event', async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withFakeModelServer(publishScript().respond, async (server) => {
        const dir = project(server, block(receiver), 'approval  = [builtins.files.write]');
        const first = await runCli(['run', dir], { cwd: dir });
        expect(first.code, first.stderr).toBe(4);
        const waiting = [...receiver.spans];
        // The run is not over: its root span is not sent yet, but what happened so far is.
        expect(hasRoot(waiting)).toBe(false);
        const task = one(waiting, 'task publish');
        expect(task.attributes['squadron.task.outcome']).toBe('waiting');
        const requested = waiting.flatMap((s) => s.events.filter((e) => e.name === 'squadron.operator.requested').map((e) => ({ span: s, event: e })));
        expect(requested).toHaveLength(1);
        expect(requested[0]!.event.attributes).toMatchObject({ 'squadron.operator.kind': 'approval', 'gen_ai.tool.name': 'builtins.files.write' });
        expect(task.events.map((e) => e.name)).toContain('squadron.task.waiting');

        const run = storedRun(dir);
        const approved = await runCli(['approve', run.id, '--all', '--db', dir], { cwd: dir });
        expect(approved.code, approved.stderr).toBe(0);
        const resumed = await runCli(['resume', run.id, '--db', dir], { cwd: dir });
        expect(resumed.code, resumed.stderr).toBe(0);
        const spans = [...receiver.spans];
        const root = one(spans, 'invoke_workflow m');
        expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root.traceId]));
        expect(byName(spans, 'task publish').every((t) => t.parentSpanId === root.spanId)).toBe(true);
        expect(byName(spans, 'task publish')).toHaveLength(2);
        expect(root.startNanos).toBeLessThanOrEqual(task.startNanos);
        const tool = one(spans, 'execute_tool builtins.files.write');
        expect(tool.attributes['squadron.tool.outcome']).toBe('ok');
        expect(tool.resource['process.pid']).not.toBe(task.resource['process.pid']);
      });
    } finally {
      await receiver.close();
    }
  });
});
