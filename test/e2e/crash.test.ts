// The crash test that leaves nothing to luck. A five-task mission with visible side effects (a local
// ledger service that appends a record per POST, a workspace journal appended to by files.write, and
// idempotent reads of both) runs once uninterrupted: that is the reference. Then, for every kill
// point — every model request of the run in flight, every ledger-service request in flight (acted on
// or not), right after every event the run stores, inside the transaction storing a model reply, and
// with two tasks running at once, pairs of requests in flight — a fresh run is killed with SIGKILL
// exactly there and resumed (some resumes are killed again) until it completes. Each scenario must satisfy the
// invariants of crashChecks.ts: same task results as the reference, every ledger entry completed, no
// side effect twice, completed calls replayed, cut-off writes reported as interrupted (and shown to
// the model), cut-off reads re-run, a model call in flight re-issued as is.
// Kill points are exact (see crashRun.ts): one task at a time, a state-keyed model script, and kills
// triggered by the request or write the process is blocked on, never by a timer.

import { availableParallelism } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkScenario, isInterruptedResult } from '../support/crashChecks.js';
import {
  crashScenario,
  describeKill,
  isRequestFor,
  mapPool,
  runScenario,
  startCrashWorld,
  type KillPoint,
  type RequestKey,
  type ScenarioResult,
} from '../support/crashRun.js';
import { runCli } from '../support/cli.js';

const LANES = Math.max(2, availableParallelism()) + 1;
const FAMILY_TIMEOUT_MS = 30 * 60_000;

let reference: ScenarioResult;

beforeAll(async () => {
  reference = await crashScenario([]);
}, 300_000);

/** Runs each kill sequence in a fresh world, `LANES` at a time; returns every broken invariant. */
async function survives(
  family: string,
  sequences: readonly (readonly KillPoint[])[],
  worldOptions: { maxParallel?: number } = {},
): Promise<{ problems: string[]; results: ScenarioResult[] }> {
  const started = Date.now();
  const results = await mapPool(sequences, LANES, (kills) => crashScenario(kills, worldOptions));
  const problems = results.flatMap((r, i) => checkScenario(reference, r).map((p) => `[${sequences[i]!.map(describeKill).join(' → ')}] ${p}`));
  const processes = results.reduce((n, r) => n + r.processes.length, 0);
  console.log(`crash test, ${family}: ${sequences.length} scenarios, ${processes} CLI processes, ${((Date.now() - started) / 1000).toFixed(1)} s wall (${LANES} lanes)`);
  return { problems, results };
}

function eventIndex(test: (type: string, data: Record<string, unknown>) => boolean): number {
  const index = reference.events.findIndex((e) => test(e.type, e.data));
  if (index < 0) throw new Error('the reference run has no such event');
  return index + 1;
}

function requestIndex(key: RequestKey): number {
  const index = reference.requests.findIndex((r) => isRequestFor(r, key));
  if (index < 0) throw new Error(`the reference run has no request for ${key.agent}[${key.task}] turn ${key.turn}`);
  return index + 1;
}

const isWorldTool = (data: Record<string, unknown>) => /^(builtins|tools)\./.test(String(data['tool']));

describe('squadron resume after SIGKILL', () => {
  it('the uninterrupted reference run completes with exactly one effect per action', () => {
    expect(reference.harness).toEqual([]);
    expect(reference.scriptProblems).toEqual([]);
    expect(reference.report?.status).toBe('completed');
    const statuses = Object.fromEntries(Object.entries(reference.report?.tasks ?? {}).map(([name, t]) => [name, t.status]));
    expect(statuses).toEqual({ alpha: 'completed', beta: 'completed', gamma: 'completed', delta: 'completed', epsilon: 'skipped' });
    expect(reference.report?.tasks['gamma']?.output).toEqual({ item: 'gamma', count: 1 });
    expect(reference.report?.tasks['delta']?.summary).toContain('### gamma');
    expect(reference.sink.records.map((r) => `${r.item}#${r.attempt}`)).toEqual(['alpha#1', 'gamma#1']);
    expect(reference.journal).toBe('beta entry (attempt 1)\ndelta entry (attempt 1)\n');
    expect(reference.ledger.every((e) => e.status === 'completed' && !isInterruptedResult(e))).toBe(true);
    expect(new Set(reference.ledger.map((e) => e.apiName))).toEqual(
      new Set(['call_agent', 'ask_agent', 'submit_output', 'task_complete', 'tools_record', 'builtins_http_get', 'builtins_files_write', 'builtins_files_read', 'get_tool_schema']),
    );
  });

  it('completes identically after a kill during each model call of the run (every request index)', async () => {
    const points = reference.requests.map((_, i): KillPoint[] => [{ at: 'model-request', k: i + 1 }]);
    expect(points.length).toBeGreaterThanOrEqual(20);
    const { problems, results } = await survives('a model call in flight', points);
    expect(problems).toEqual([]);
    // No write was cut off, so nothing may be reported as interrupted.
    expect(results.filter((r) => r.ledger.some(isInterruptedResult)).length).toBe(0);
  }, FAMILY_TIMEOUT_MS);

  it('completes identically after a kill during each ledger-service call, acted on or not', async () => {
    const points = reference.sink.requests.flatMap((_, i): KillPoint[][] => [
      [{ at: 'sink-request', k: i + 1, effect: true }],
      [{ at: 'sink-request', k: i + 1, effect: false }],
    ]);
    const { problems, results } = await survives('a tool call in flight', points);
    expect(problems).toEqual([]);
    for (const [i, result] of results.entries()) {
      const killed = reference.sink.requests[(points[i]![0] as { k: number }).k - 1]!;
      const interrupted = result.ledger.filter(isInterruptedResult);
      if (killed.method === 'POST') {
        // The cut-off POST is reported, never re-sent; the model checked and retried only if needed.
        expect(interrupted.map((e) => e.apiName)).toEqual(['tools_record']);
        const effect = (points[i]![0] as { effect: boolean }).effect;
        const item = JSON.parse(killed.body).item as string;
        expect(result.sink.records.filter((r) => r.item === item).map((r) => r.attempt)).toEqual(effect ? [1] : [2]);
      } else {
        // The cut-off GET is idempotent: re-run, never reported.
        expect(interrupted).toEqual([]);
        expect(result.sink.requests.filter((r) => r.url === killed.url).length).toBe(2);
      }
    }
  }, FAMILY_TIMEOUT_MS);

  it('completes identically after a kill right after each event the run stores', async () => {
    const points = reference.events.map((_, i): KillPoint[] => [{ at: 'event', k: i + 1 }]);
    // The moments the issue names are all among them (eventIndex throws if the run lacks one).
    const moments = {
      'a world tool started, not finished': eventIndex((t, d) => t === 'tool.started' && isWorldTool(d)),
      "between a tool's completion and the next message": eventIndex((t, d) => t === 'tool.finished' && isWorldTool(d)),
      'after a tool schema was loaded, before its result message': eventIndex((t, d) => t === 'tool.finished' && d['tool'] === 'get_tool_schema'),
      'inside the completing turn, between submit_output and task_complete': eventIndex((t, d) => t === 'tool.finished' && d['tool'] === 'submit_output'),
      "inside the completing turn, after task_complete's result": eventIndex((t, d) => t === 'tool.finished' && d['tool'] === 'task_complete'),
      'after the commander finished, before the task is marked complete': eventIndex((t, d) => t === 'session.finished' && d['agent'] === 'commander'),
      'between tasks': eventIndex((t) => t === 'task.completed'),
      'after a route was chosen': eventIndex((t) => t === 'route.chosen'),
      'after the run finished': reference.events.length,
    };
    console.log(`crash test, named moments among the event kill points: ${JSON.stringify(moments)}`);
    const { problems, results } = await survives('right after each stored event', points);
    expect(problems).toEqual([]);
    // A kill between a write's ledger start and its execution reports it; the model then retried.
    const reported = results.filter((r) => r.ledger.some(isInterruptedResult)).length;
    expect(reported).toBeGreaterThanOrEqual(4);
  }, FAMILY_TIMEOUT_MS);

  it('completes identically after a kill inside the transaction that stores a model reply', async () => {
    // The k-th stored reply answers the k-th request (one task at a time); one reply of each kind.
    const replies = [
      requestIndex({ agent: 'commander', task: 'alpha', turn: 1 }), // call_agent
      requestIndex({ agent: 'worker', task: 'alpha', turn: 1 }), // a non-idempotent POST
      requestIndex({ agent: 'worker', task: 'alpha', turn: 3 }), // the worker's answer
      requestIndex({ agent: 'commander', task: 'gamma', turn: 3 }), // submit_output + task_complete
      requestIndex({ agent: 'worker', task: 'delta', turn: 1 }), // get_tool_schema
      reference.requests.length, // the last reply of the run
    ];
    const { problems, results } = await survives('inside the reply transaction', replies.map((k): KillPoint[] => [{ at: 'reply-stored', k }]));
    expect(problems).toEqual([]);
    // Nothing of a rolled-back reply survives: each scenario re-issued exactly that one call.
    for (const result of results) expect(result.requests.length).toBe(reference.requests.length + 1);
  }, FAMILY_TIMEOUT_MS);

  it('with two tasks at a time, gives the same results and survives kills with both tasks mid-conversation', async () => {
    const parallel = await crashScenario([], { maxParallel: 2 });
    expect(checkScenario(reference, parallel)).toEqual([]);
    // Both independent tasks are blocked on a model call at the same time, whatever the interleaving.
    const steps: [RequestKey['agent'], number][] = [['commander', 1], ['worker', 1], ['worker', 2], ['worker', 3], ['commander', 2]];
    const pairs = steps.flatMap(([agent, turn], i) => {
      const across = steps[steps.length - 1 - i]!;
      const out: KillPoint[][] = [[{ at: 'requests-in-flight', keys: [{ agent, task: 'alpha', turn }, { agent, task: 'beta', turn }] }]];
      if (across[0] !== agent || across[1] !== turn) {
        out.push([{ at: 'requests-in-flight', keys: [{ agent, task: 'alpha', turn }, { agent: across[0], task: 'beta', turn: across[1] }] }]);
      }
      return out;
    });
    const { problems } = await survives('two tasks in flight', pairs, { maxParallel: 2 });
    expect(problems).toEqual([]);
  }, FAMILY_TIMEOUT_MS);

  it('completes identically when the resumes are killed too, several times in a row', async () => {
    const gammaWorkerTurn2 = reference.requests.findIndex((r) => r.canonical.system.startsWith('You are the worker agent of task "gamma"') && r.canonical.messages.length === 3) + 1;
    const alphaPost = reference.sink.requests.findIndex((r) => r.method === 'POST') + 1;
    const betaWriteStarted = eventIndex((t, d) => t === 'tool.started' && d['tool'] === 'builtins.files.write');
    const gammaCompleteFinished = eventIndex((t, d) => t === 'tool.finished' && d['tool'] === 'task_complete' && d['task'] === 'gamma');
    const alphaCompleted = eventIndex((t, d) => t === 'task.completed' && d['task'] === 'alpha');
    const chains: KillPoint[][] = [
      // The same model call killed in flight three times.
      [{ at: 'model-request', k: gammaWorkerTurn2 }, { at: 'model-request', k: 1 }, { at: 'model-request', k: 1 }],
      // A POST lost in flight, then the request carrying its interrupted result, then early in the next resume.
      [{ at: 'sink-request', k: alphaPost, effect: false }, { at: 'model-request', k: 1 }, { at: 'event', k: 3 }],
      // A write started but not executed, then a resume killed among its replays, then mid-call.
      [{ at: 'event', k: betaWriteStarted }, { at: 'event', k: 5 }, { at: 'model-request', k: 2 }],
      // Inside the completing turn, then right after the resume's run.started.
      [{ at: 'event', k: gammaCompleteFinished }, { at: 'event', k: 1 }],
      // Between tasks, then the next task's POST acted on in flight, then its next model call.
      [{ at: 'event', k: alphaCompleted }, { at: 'sink-request', k: 1, effect: true }, { at: 'model-request', k: 1 }],
    ];
    const { problems, results } = await survives('resumes killed again', chains);
    expect(problems).toEqual([]);
    for (const [i, result] of results.entries()) expect(result.processes.length).toBe(chains[i]!.length + 1);
  }, FAMILY_TIMEOUT_MS);

  it('refuses a second resume while the first is live, naming the holder', async () => {
    const world = await startCrashWorld();
    try {
      const killed = await runScenario(world, [{ at: 'model-request', k: 3 }], { finish: false });
      expect(killed.harness).toEqual([]);
      const runId = killed.runId;
      // Resume A blocks on its first model call until B has been refused.
      let arrived!: () => void;
      const blocked = new Promise<void>((resolve) => (arrived = resolve));
      let releaseA!: () => void;
      const released = new Promise<void>((resolve) => (releaseA = resolve));
      const base = world.server.requests.length;
      world.server.onRequest = (n) => {
        if (n !== base + 1) return;
        world.hold(n, released, 'answer');
        arrived();
      };
      let childA: ChildProcess | undefined;
      const resumeA = runCli(['resume', runId, '--json', '--db', world.dbPath], { cwd: world.dir, onSpawn: (c) => (childA = c) });
      await blocked;
      const resumeB = await runCli(['resume', runId, '--json', '--db', world.dbPath], { cwd: world.dir });
      releaseA();
      const a = await resumeA;
      world.server.onRequest = undefined;

      expect(resumeB.code).toBe(1);
      expect(resumeB.stderr).toContain(`run ${runId} is being executed by another process (pid ${childA!.pid} on `);
      expect(resumeB.stderr).not.toMatch(/at .*\.js:\d+/);
      expect(a.code).toBe(0);
      const doc = JSON.parse(a.stdout) as { status: string; tasks: Record<string, { summary: string | null }> };
      expect(doc.status).toBe('completed');
      expect(doc.tasks['delta']?.summary).toBe(reference.report?.tasks['delta']?.summary);
    } finally {
      await world.close();
    }
  }, 300_000);

  it('prints the resume command when `squadron run` finds the last run of the mission interrupted', async () => {
    const world = await startCrashWorld();
    try {
      const killed = await runScenario(world, [{ at: 'model-request', k: 2 }], { finish: false });
      const first = killed.runId;
      expect(killed.harness).toEqual([]);
      // The second run is stopped at its first model call: only its start-up note matters here.
      const again = await runScenario(world, [{ at: 'model-request', k: 1 }], { finish: false });
      expect(again.harness).toEqual([]);
      expect(again.runId).not.toBe(first);
      expect(again.processes[0]!.stderr).toContain(
        `note: the last run of mission "crashproof" (${first}) was interrupted; resume it with: squadron resume ${first} --db squadron.db\n`,
      );
      // And the command it prints works.
      const resumed = await runCli(['resume', first, '--json', '--db', world.dbPath], { cwd: world.dir });
      expect(resumed.code).toBe(0);
      expect((JSON.parse(resumed.stdout) as { run_id: string; status: string }).run_id).toBe(first);
    } finally {
      await world.close();
    }
  }, 300_000);
});
