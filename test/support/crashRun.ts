// Drives one crash scenario end to end: a fresh world (fake model server, ledger service, temp
// project), `squadron run` killed with SIGKILL at a chosen point, then `squadron resume` (itself
// killed at further points if asked) until a resume runs to the end. Kill points are exact:
//   model-request k      the k-th model request of that process has arrived (the call is in flight);
//   requests-in-flight   with tasks running in parallel: each listed conversation's request has
//                        arrived and is held unanswered, so the process is blocked on all of them;
//   sink-request k       the k-th request to the ledger service has arrived, its effect applied or not;
//   event k              right after that process wrote its k-th event row (see crashHook.ts);
//   reply-stored k       inside the transaction storing the k-th model reply, before its commit.
// After each kill the ledger is read back, so checks can compare what was done before the crash with
// what the resume did (crashChecks.ts).

import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTurns, latestRunId, maxEventId, readEvents, readLedger, type LedgerEntry, type StoredEvent } from './crashDb.js';
import { CRASH_AFTER_ENV } from './crashHook.js';
import { crashMissionHcl, crashScript, JOURNAL, type CrashScript } from './crashMission.js';
import { startSink, type Sink } from './crashSink.js';
import { REPO_ROOT, runCli, tempDir, type CliResult } from './cli.js';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from './fakeModelServer.js';

export type { LedgerEntry, StoredEvent } from './crashDb.js';

export const CRASH_HOOK = join(REPO_ROOT, 'dist', 'test', 'support', 'crashHook.js');

/** One conversation's model request: whose, and which turn (1 = its first request). */
export interface RequestKey {
  agent: 'commander' | 'worker';
  task: string;
  turn: number;
}

export type KillPoint =
  | { at: 'model-request'; k: number }
  | { at: 'requests-in-flight'; keys: RequestKey[] }
  | { at: 'sink-request'; k: number; effect: boolean }
  | { at: 'event'; k: number }
  | { at: 'reply-stored'; k: number };

export interface TaskResult {
  status: string;
  summary: string | null;
  output: unknown;
}

/** What the database held right after one process was killed. */
export interface KillSnapshot {
  point: KillPoint;
  /** Index into `requests` of the first model request made after this kill. */
  requestsBefore: number;
  /** Ledger-service requests made before the killed process started. */
  sinkRequestsBefore: number;
  /** Events with a larger id were written by later processes. */
  maxEventId: number;
  ledger: LedgerEntry[];
  /**
   * Model calls whose reply the process never stored (in flight, or answered but lost with the
   * transaction the kill rolled back — the one storing the reply, which also holds the first writes
   * that act on it): they must be re-issued as they were.
   */
  reissue: FakeRequest[];
}

export interface ScenarioResult {
  runId: string;
  /** Every process: the killed ones, then the final resume. */
  processes: CliResult[];
  snapshots: KillSnapshot[];
  /** The final resume's --json document. */
  report: { status: string; tasks: Record<string, TaskResult>; usage: Record<string, number> } | undefined;
  requests: FakeRequest[];
  scriptProblems: string[];
  serverErrors: string[];
  sink: Pick<Sink, 'records' | 'requests'>;
  journal: string;
  ledger: LedgerEntry[];
  events: StoredEvent[];
  /** Problems of the harness itself (a kill point never reached, a process that failed). */
  harness: string[];
}

export interface CrashWorld {
  dir: string;
  dbPath: string;
  workspace: string;
  server: FakeModelServer;
  sink: Sink;
  script: CrashScript;
  /**
   * Leaves model request n unanswered until `until` settles, then answers it as scripted or drops
   * the connection (for a request whose client is being killed: it can never see a reply).
   */
  hold(n: number, until: Promise<void>, then: 'drop' | 'answer'): void;
  close(): Promise<void>;
}

export async function startCrashWorld(options: { maxParallel?: number } = {}): Promise<CrashWorld> {
  const sink = await startSink();
  const script = crashScript(sink.url);
  const held = new Map<number, { until: Promise<void>; then: 'drop' | 'answer' }>();
  const server = await startFakeModelServer({
    respond: async (request) => {
      const hold = held.get(request.n);
      if (hold) {
        await hold.until;
        if (hold.then === 'drop') return { drop: 'before-response' };
      }
      return script.respond(request);
    },
  });
  const dir = tempDir('squadron-crash-');
  writeFileSync(join(dir, 'mission.hcl'), crashMissionHcl(server.anthropicBaseURL, sink.url, options.maxParallel));
  const world: CrashWorld = {
    dir,
    dbPath: join(dir, 'squadron.db'),
    workspace: join(dir, 'ws'),
    server,
    sink,
    script,
    hold(n, until, then) {
      held.set(n, { until, then });
    },
    async close() {
      await server.close();
      await sink.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

export interface ScenarioOptions {
  /** Resume once more without a kill point after the last kill (default true). */
  finish?: boolean;
  timeoutMs?: number;
}

/**
 * Runs `squadron run` killed at `kills[0]`, then one `squadron resume` per further kill point, then
 * (unless `finish: false`) a last resume that runs to the end.
 */
export async function runScenario(world: CrashWorld, kills: readonly KillPoint[], options: ScenarioOptions = {}): Promise<ScenarioResult> {
  const { finish = true, timeoutMs = 60_000 } = options;
  const processes: CliResult[] = [];
  const snapshots: KillSnapshot[] = [];
  const harness: string[] = [];
  let runId = '';
  const requestsAtStart = world.server.requests.length;
  // Requests never answered into the database so far: those in flight at a kill, and replies lost.
  let unstored = 0;
  for (let i = 0; i < kills.length + (finish ? 1 : 0); i++) {
    const point = kills[i];
    const args = i === 0 ? ['run', world.dir, '--json', '--db', world.dbPath, '--workspace', world.workspace] : ['resume', runId, '--json', '--db', world.dbPath];
    const requestsBefore = world.server.requests.length;
    const sinkRequestsBefore = world.sink.requests.length;
    const { result, inFlight, reached } = await spawnWithKill(world, args, point, timeoutMs);
    processes.push(result);
    if (!runId) runId = latestRunId(world.dbPath) ?? '';
    if (!point) break;
    if (!reached || result.signal !== 'SIGKILL') {
      harness.push(`process ${i + 1} (${args[0]}) was to be killed at ${describeKill(point)} but ended with code ${result.code}, signal ${result.signal}: ${result.stderr.trim().slice(-300)}`);
      break;
    }
    // A reply is lost when the kill rolled back the transaction storing it: the run then holds fewer
    // turns than its answered requests. One task at a time, that is the process's last answered one.
    const made = world.server.requests.slice(requestsAtStart);
    const lostCount = made.length - countTurns(world.dbPath, runId) - unstored - inFlight.length;
    const answered = world.server.requests.slice(requestsBefore).filter((r) => !inFlight.some((f) => f.n === r.n));
    const lost = lostCount > 0 ? answered.slice(-lostCount) : [];
    unstored += inFlight.length + lost.length;
    const snapshot: KillSnapshot = {
      point,
      requestsBefore: world.server.requests.length,
      sinkRequestsBefore,
      maxEventId: maxEventId(world.dbPath, runId),
      ledger: readLedger(world.dbPath, runId),
      reissue: [...inFlight, ...lost],
    };
    if (point.at === 'model-request' && world.server.requests.length !== requestsBefore + point.k) {
      harness.push(`process ${i + 1}: killed at model request ${point.k} but ${world.server.requests.length - requestsBefore} requests arrived`);
    }
    snapshots.push(snapshot);
  }
  const last = processes[processes.length - 1]!;
  let report: ScenarioResult['report'];
  if (finish) {
    try {
      report = JSON.parse(last.stdout) as ScenarioResult['report'];
    } catch {
      harness.push(`the last process printed no JSON report (code ${last.code}, signal ${last.signal}): ${last.stderr.trim().slice(-500)}`);
    }
  }
  const journalPath = join(world.workspace, JOURNAL);
  return {
    runId,
    processes,
    snapshots,
    report,
    requests: [...world.server.requests],
    scriptProblems: [...world.script.problems],
    serverErrors: [...world.server.errors],
    sink: { records: [...world.sink.records], requests: [...world.sink.requests] },
    journal: existsSync(journalPath) ? readFileSync(journalPath, 'utf8') : '',
    ledger: runId ? readLedger(world.dbPath, runId) : [],
    events: runId ? readEvents(world.dbPath, runId) : [],
    harness,
  };
}

/** Starts a fresh world, runs the scenario, closes the world. */
export async function crashScenario(kills: readonly KillPoint[], worldOptions: { maxParallel?: number } = {}): Promise<ScenarioResult> {
  const world = await startCrashWorld(worldOptions);
  try {
    return await runScenario(world, kills);
  } finally {
    await world.close();
  }
}

export function describeKill(point: KillPoint): string {
  switch (point.at) {
    case 'model-request':
      return `model request ${point.k} (in flight)`;
    case 'requests-in-flight':
      return `requests in flight: ${point.keys.map((k) => `${k.agent}[${k.task}] turn ${k.turn}`).join(' + ')}`;
    case 'reply-stored':
      return `inside the transaction storing model reply ${point.k}`;
    case 'sink-request':
      return `ledger-service request ${point.k} (in flight, effect ${point.effect ? 'applied' : 'not applied'})`;
    case 'event':
      return `event ${point.k}`;
  }
}

interface Spawned {
  result: CliResult;
  inFlight: FakeRequest[];
  /** Whether the kill point was reached (always true without one). */
  reached: boolean;
}

async function spawnWithKill(world: CrashWorld, args: string[], point: KillPoint | undefined, timeoutMs: number): Promise<Spawned> {
  const { server, sink } = world;
  let child: ChildProcess | undefined;
  let reached = point === undefined || point.at === 'event' || point.at === 'reply-stored';
  const inFlight: FakeRequest[] = [];
  let exited!: () => void;
  const exitedPromise = new Promise<void>((resolve) => (exited = resolve));
  const env: Record<string, string | undefined> = { [CRASH_AFTER_ENV]: undefined };
  const holdAndKillWhen = (done: () => boolean) => (n: number, request: FakeRequest) => {
    inFlight.push(request);
    world.hold(n, exitedPromise, 'drop');
    if (done()) {
      reached = true;
      child?.kill('SIGKILL');
    }
  };

  const requestBase = server.requests.length;
  const sinkBase = sink.requests.length;
  server.onRequest = undefined;
  sink.intercept = undefined;
  if (point?.at === 'model-request') {
    const kill = holdAndKillWhen(() => true);
    server.onRequest = (n, request) => {
      if (n === requestBase + point.k) kill(n, request);
    };
  } else if (point?.at === 'requests-in-flight') {
    const waiting = [...point.keys];
    const kill = holdAndKillWhen(() => waiting.length === 0);
    server.onRequest = (n, request) => {
      const i = waiting.findIndex((key) => isRequestFor(request, key));
      if (i < 0) return;
      waiting.splice(i, 1);
      kill(n, request);
    };
  } else if (point?.at === 'sink-request') {
    sink.intercept = (request) => {
      if (request.n !== sinkBase + point.k) return undefined;
      return {
        applyEffect: point.effect,
        onArrival: () => {
          reached = true;
          child?.kill('SIGKILL');
        },
      };
    };
  } else if (point?.at === 'event' || point?.at === 'reply-stored') {
    env[CRASH_AFTER_ENV] = `${point.at === 'event' ? 'events' : 'model_turns'}:${point.k}`;
    env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} --import=${CRASH_HOOK}`.trim();
  }
  try {
    const result = await runCli(args, {
      cwd: world.dir,
      env,
      timeoutMs,
      onSpawn: (c) => {
        child = c;
        c.on('exit', () => exited());
      },
    });
    return { result, reached, inFlight };
  } finally {
    exited();
    server.onRequest = undefined;
    sink.intercept = undefined;
  }
}

/** Whether a model request is the given conversation's request for the given turn. */
export function isRequestFor(request: FakeRequest, key: RequestKey): boolean {
  const role = key.agent === 'commander' ? 'commander' : 'worker agent';
  return (
    request.canonical.system.startsWith(`You are the ${role} of task "${key.task}"`) &&
    request.canonical.messages.filter((m) => m.role === 'assistant').length + 1 === key.turn
  );
}

/** Maps items through `fn` with at most `limit` in flight, results in input order. */
export async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
