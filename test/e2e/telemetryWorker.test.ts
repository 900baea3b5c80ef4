// End-to-end, PostgreSQL: a run queued (`run --detach`) and executed by a `squadron worker` process
// sends its spans from the worker, in the trace stored with the run (runs.trace_context), under one
// `invoke_workflow` root; and a run started by `squadron run`, killed with SIGKILL, is taken over by a
// worker that continues the trace the first process stored.

import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { startOtlpReceiver } from '../support/otlpReceiver.js';
import { usePostgres } from '../support/postgres.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';
import { query, startWorker, waitFor } from '../support/workerProcess.js';

const pg = usePostgres();
afterAll(removeProjects);

describe('telemetry from a PostgreSQL worker', () => {
  it('a unit run by `squadron worker` continues the run trace stored with the run', async () => {
    const url = await pg().createDatabase();
    const receiver = await startOtlpReceiver();
    const script = turnScript({
      [commanderOf('a')]: [callAgent('worker', 'Write it'), (req) => taskComplete(`done: ${lastToolResult(req).slice(0, 30)}`)],
      [workerOf('a')]: [toolCall('builtins_files_write', { path: 'a.txt', content: 'a' }), { text: 'written' }],
      [commanderOf('b')]: [taskComplete('b done')],
    });
    const models = await startFakeModelServer({ respond: script.respond });
    const worker: { w?: ReturnType<typeof startWorker> } = {};
    try {
      const dir = writeProject({
        'main.hcl': `
model "fake" {
  provider = "anthropic"
  base_url = "${models.anthropicBaseURL}"
  api_key  = "k"
}
telemetry {
  endpoint = "${receiver.url}"
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "a" {
    objective = "Write a."
    tools     = [builtins.files.write]
  }
  task "b" {
    objective  = "Check a."
    depends_on = [tasks.a]
    tools      = [builtins.files.read]
  }
}
`,
      });
      const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
      expect(queued.code, queued.stderr).toBe(0);
      const runId = /^run (run_\w+)$/m.exec(queued.stdout)![1]!;
      // Queuing runs nothing, so sends nothing.
      expect(receiver.requests).toEqual([]);
      worker.w = startWorker(dir, url, 2);
      await waitFor('the run to complete', async () => {
        const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
        return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
      });
      // The worker flushes a run's spans when its last unit of the run is done: wait for the root.
      const spans = await receiver.waitFor((s) => s.some((x) => x.name === 'invoke_workflow m') && s.filter((x) => x.name === 'invoke_agent commander').length >= 2);
      worker.w.child.kill('SIGTERM');
      expect(await worker.w.exited, worker.w.out()).toBe(0);
      expect(worker.w.out()).toMatch(/^took task /m);

      const [row] = await query<{ trace_context: string }>(url, 'SELECT trace_context FROM runs WHERE id = $1', [runId]);
      const traceparent = (JSON.parse(row!.trace_context) as { traceparent: string }).traceparent;
      const root = spans.find((s) => s.name === 'invoke_workflow m')!;
      expect(traceparent).toBe(`00-${root.traceId}-${root.spanId}-01`);
      expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root.traceId]));
      expect(spans.filter((s) => s.name === 'invoke_workflow m')).toHaveLength(1);
      // Every span came from the worker process.
      expect(new Set(spans.map((s) => s.resource['process.pid']))).toEqual(new Set([worker.w.child.pid]));
      // The task's span: `task a` where the scheduler ran it, `unit a` where a runner took its queued
      // unit with services of its own; either way a child of the run's span, never an empty one.
      const holders = spans.filter((s) => s.name === 'task a' || s.name === 'unit a');
      expect(holders.length).toBeGreaterThan(0);
      for (const h of holders) {
        expect(h.parentSpanId).toBe(root.spanId);
        expect(spans.some((s) => s.parentSpanId === h.spanId)).toBe(true);
      }
      const commander = spans.find((s) => s.name === 'invoke_agent commander' && s.attributes['squadron.task.name'] === 'a')!;
      expect(holders.map((h) => h.spanId)).toContain(commander.parentSpanId);
      const agent = spans.find((s) => s.name === 'invoke_agent worker')!;
      expect(agent.parentSpanId).toBe(commander.spanId);
      expect(spans.find((s) => s.name === 'execute_tool builtins.files.write')!.parentSpanId).toBe(agent.spanId);
      expect(spans.filter((s) => s.name === 'task b' || s.name === 'unit b').every((s) => s.parentSpanId === root.spanId)).toBe(true);
    } finally {
      if (worker.w && worker.w.child.exitCode === null) worker.w.child.kill('SIGKILL');
      await models.close();
      await receiver.close();
    }
  });

  it('a run started by `squadron run` and killed with SIGKILL is continued by a worker in the same trace', async () => {
    const url = await pg().createDatabase();
    const receiver = await startOtlpReceiver();
    let cli: ChildProcess | undefined;
    let killed = false;
    const script = turnScript({
      [commanderOf('a')]: [callAgent('worker', 'Write it'), (req) => taskComplete(`done: ${lastToolResult(req).slice(0, 30)}`)],
      [workerOf('a')]: [
        () => {
          // The first process dies while the worker's first model call is in flight.
          if (!killed) {
            killed = true;
            cli?.kill('SIGKILL');
            return { text: 'never read', delayMs: 5_000 };
          }
          return toolCall('builtins_files_write', { path: 'a.txt', content: 'a' });
        },
        toolCall('builtins_files_write', { path: 'a.txt', content: 'a' }),
        { text: 'written' },
      ],
    });
    const models = await startFakeModelServer({ respond: script.respond });
    const worker: { w?: ReturnType<typeof startWorker> } = {};
    try {
      const dir = writeProject({
        'main.hcl': `
model "fake" {
  provider = "anthropic"
  base_url = "${models.anthropicBaseURL}"
  api_key  = "k"
}
telemetry {
  endpoint = "${receiver.url}"
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "a" {
    objective = "Write a."
    tools     = [builtins.files.write]
  }
}
`,
      });
      const first = await runCli(['run', dir, '--db', url], { cwd: dir, onSpawn: (c) => (cli = c) });
      expect(first.signal).toBe('SIGKILL');
      const [row] = await query<{ id: string; trace_context: string }>(url, 'SELECT id, trace_context FROM runs');
      const stored = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec((JSON.parse(row!.trace_context) as { traceparent: string }).traceparent)!;
      // The worker claims the run once the dead process's lease is stale, and finishes it.
      worker.w = startWorker(dir, url, 2);
      await waitFor('the run to complete', async () => {
        const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [row!.id]);
        return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
      });
      const spans = await receiver.waitFor((s) => s.some((x) => x.name === 'invoke_workflow m'));
      worker.w.child.kill('SIGTERM');
      expect(await worker.w.exited, worker.w.out()).toBe(0);
      expect(worker.w.out()).toMatch(/^took run /m);
      // The trace the first process stored, continued by the worker: one trace, its root the stored span.
      expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([stored[1]]));
      const root = spans.find((s) => s.name === 'invoke_workflow m')!;
      expect(root.spanId).toBe(stored[2]);
      expect(root.resource['process.pid']).toBe(worker.w.child.pid);
      const fromWorker = spans.filter((s) => s.resource['process.pid'] === worker.w!.child.pid && s !== root);
      expect(fromWorker.some((s) => s.name === 'execute_tool builtins.files.write')).toBe(true);
      // The root starts when the killed process started the run, before the worker did anything.
      expect(fromWorker.every((s) => s.startNanos > root.startNanos)).toBe(true);
      expect(spans.filter((s) => s.name === 'task a' || s.name === 'unit a').every((s) => s.parentSpanId === root.spanId)).toBe(true);
    } finally {
      if (cli && cli.exitCode === null) cli.kill('SIGKILL');
      if (worker.w && worker.w.child.exitCode === null) worker.w.child.kill('SIGKILL');
      await models.close();
      await receiver.close();
    }
  });
});
