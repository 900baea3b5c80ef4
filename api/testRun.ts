// One `run` block of a test file: its trials, each a real run of the mission in a throwaway database
// and workspace (replayed, recorded or live, with the test's mocked tools), read back from the store
// as `inspect` reads it, then its assertions. A test passes when at least pass_at trials pass.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestRun } from '../config/testFile.js';
import type { ObjectValue } from '../config/hcl/value.js';
import type { ToolResult } from '../core/toolResults.js';
import type { AssertOutcome } from '../runtime/testing/assertions.js';
import type { JudgeMode } from '../runtime/testing/judgeModel.js';
import { SquadronError } from './errors.js';
import type { LoadedProject } from './project.js';
import { run as runMission } from './runs.js';
import { selectMission } from './project.js';

export type TestStatus = 'passed' | 'failed' | 'error';

export interface TestFailure {
  message: string;
  /** Where in the test file: the failed assert, or the run block. */
  file: string;
  line: number;
  column: number;
}

export interface TrialResult {
  passed: boolean;
  runId?: string;
  /** The trial's database, when kept (`keepDir`): `squadron inspect <run-id> --db <db>`. */
  db?: string;
  /** The run's status (`completed`, `failed`, …). */
  status?: string;
  costUsd: number;
  judgeCostUsd: number;
  failures: TestFailure[];
  judged: AssertOutcome['judged'];
}

export interface TestResult {
  name: string;
  file: string;
  line: number;
  mission: string;
  mode: 'replay' | 'record' | 'live' | 'config';
  status: TestStatus;
  trials: TrialResult[];
  passAt: number;
  durationMs: number;
  /** The first trial's failures that decided the outcome (all trials' are in `trials`). */
  failures: TestFailure[];
}

export interface TestRunContext {
  project: LoadedProject;
  record: boolean;
  env: NodeJS.ProcessEnv;
  /** Keep each trial's database and workspace (under this folder) instead of removing them. */
  keepDir?: string;
}

export async function runTest(test: TestRun, ctx: TestRunContext): Promise<TestResult> {
  const started = performance.now();
  const mode: TestResult['mode'] = test.live ? 'live' : test.replay === undefined ? 'config' : ctx.record ? 'record' : 'replay';
  const trials: TrialResult[] = [];
  const count = mode === 'live' ? test.trials : 1;
  for (let i = 0; i < count; i++) trials.push(await runTrial(test, ctx, mode, i));
  const passes = trials.filter((t) => t.passed).length;
  const need = mode === 'live' ? test.passAt : 1;
  const errored = trials.every((t) => t.runId === undefined);
  const status: TestStatus = passes >= need ? 'passed' : errored ? 'error' : 'failed';
  const failures = status === 'passed' ? [] : (trials.find((t) => !t.passed)?.failures ?? []);
  if (status !== 'passed' && count > 1) {
    failures.unshift({ ...at(test), message: `${passes} of ${count} trials passed; pass_at is ${need}` });
  }
  return { name: test.name, file: test.file, line: test.range.start.line, mission: test.mission, mode, status, trials, passAt: need, durationMs: Math.round(performance.now() - started), failures };
}

async function runTrial(test: TestRun, ctx: TestRunContext, mode: TestResult['mode'], trial: number): Promise<TrialResult> {
  const dir = mkdtempSync(join(ctx.keepDir ?? tmpdir(), `squadron-test-${test.name}-`));
  const recording = mode === 'record' ? join(dir, 'cassette.jsonl') : undefined;
  const result: TrialResult = { passed: false, costUsd: 0, judgeCostUsd: 0, failures: [], judged: [] };
  try {
    const db = join(dir, 'test.db');
    let runId: string | undefined;
    try {
      const report = await runMission({
        config: ctx.project,
        mission: test.mission,
        inputs: test.inputs,
        db,
        workspace: join(dir, 'workspace'),
        env: ctx.env,
        ...(mode === 'replay' ? { replay: test.replay! } : {}),
        ...(recording ? { record: recording } : {}),
        ...(test.mocks.length > 0 ? { toolMocks: mockResults(test) } : {}),
        onRunId: (id) => (runId = id),
      });
      runId = report.runId;
    } catch (error) {
      if (!(error instanceof SquadronError) || runId !== undefined) throw error;
      result.failures.push({ ...at(test), message: `the mission could not run: ${error.message}` });
      return result;
    }
    result.runId = runId;
    if (ctx.keepDir !== undefined) result.db = db;
    const run = await storedRun(db, runId!);
    result.status = String(run['status']);
    result.costUsd = Number(run['cost_usd']);
    result.failures.push(...outcomeFailures(test, run));
    const { evaluateAsserts } = await import('../runtime/testing/assertions.js');
    const judge = await judgeFor(ctx, test, mode, recording, result, run);
    const outcomes = await evaluateAsserts(test.asserts, run, judge);
    for (const o of outcomes) {
      result.judged.push(...o.judged);
      if (!o.passed) result.failures.push({ message: o.message ?? 'assertion failed', file: o.file, line: o.line, column: o.column });
    }
    result.passed = result.failures.length === 0;
    if (recording && trial === 0) {
      // Written whole once the run and its judging are done: a replay never reads half a recording.
      mkdirSync(dirname(test.replay!), { recursive: true });
      copyFileSync(recording, test.replay!);
    }
    return result;
  } finally {
    if (ctx.keepDir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/** How the run ended against what the test expects (completed, or failed as expect_failures says). */
function outcomeFailures(test: TestRun, run: ObjectValue): TestFailure[] {
  const status = String(run['status']);
  const tasks = run['tasks'] as Record<string, { status: string; error: string | null }>;
  const errors = Object.entries(tasks).flatMap(([name, t]) => (t.error ? [`${name}: ${t.error}`] : []));
  const runError = typeof run['error'] === 'string' ? run['error'] : undefined;
  const cause = [runError, ...errors].find((e) => e !== undefined && e.includes('replay: the cassette has no answer'));
  if (cause !== undefined) {
    const detail = cause.slice(cause.indexOf('replay: the cassette has no answer'));
    return [{ ...at(test), message: `the cassette no longer matches what the mission sends (re-record it with squadron test --record after reviewing the change):\n  ${detail}${requestDiff(detail)}` }];
  }
  const expected = test.expectFailures;
  if (expected === undefined) {
    if (status === 'completed') return [];
    return [{ ...at(test), message: `the run ended ${status}${errors.length > 0 ? `: ${errors.join('; ')}` : runError ? `: ${runError}` : ''}` }];
  }
  const out: TestFailure[] = [];
  if (status !== 'failed') out.push({ ...at(test, expected.range), message: `expect_failures: the run was expected to fail, but it ended ${status}` });
  for (const name of expected.tasks) {
    const t = tasks[name];
    if (t?.status !== 'failed') out.push({ ...at(test, expected.range), message: `expect_failures: task "${name}" was expected to fail, but it is ${t?.status ?? 'absent'}` });
  }
  return out;
}

async function storedRun(db: string, runId: string): Promise<ObjectValue> {
  const [{ openDatabase }, { inspectRun }, { runObject }] = await Promise.all([import('../store/index.js'), import('../runtime/inspect/inspect.js'), import('../runtime/testing/runObject.js')]);
  const store = await openDatabase(db);
  try {
    const inspection = await inspectRun(store, runId, { transcript: true });
    if (!inspection) throw new Error(`run ${runId} is not in its test database`);
    return runObject(inspection);
  } finally {
    await store.close();
  }
}

type Judge = import('../runtime/testing/assertions.js').Judge;

/** The judge for this trial; refused once the run and its judging spent the mission's dollar budget. */
async function judgeFor(ctx: TestRunContext, test: TestRun, mode: TestResult['mode'], recording: string | undefined, result: TrialResult, run: ObjectValue): Promise<Judge> {
  if (!test.asserts.length) return async () => ({ pass: false, reason: 'no judge', costUsd: 0, tokens: 0 });
  const [{ judgeModel }, { askJudge }] = await Promise.all([import('../runtime/testing/judgeModel.js'), import('../runtime/testing/judge.js')]);
  const mission = selectMission(ctx.project.graph, test.mission);
  const judgeMode: JudgeMode = mode === 'replay' ? { kind: 'replay', cassette: test.replay! } : recording ? { kind: 'record', cassette: recording } : { kind: 'live' };
  let model: ReturnType<typeof judgeModel> | undefined;
  let turn = 0;
  const limit = mission.budget?.dollars;
  return async (q) => {
    if (limit !== undefined && Number(run['cost_usd']) + result.judgeCostUsd >= limit) {
      return { pass: false, reason: `the mission's budget ($${limit}) is spent: the judge was not asked`, costUsd: 0, tokens: 0 };
    }
    model ??= judgeModel(ctx.project.graph, mission, judgeMode, test.name);
    const verdict = await askJudge(model, q, ++turn);
    result.judgeCostUsd += verdict.costUsd;
    return verdict;
  };
}

function mockResults(test: TestRun): ReadonlyMap<string, ToolResult> {
  return new Map(test.mocks.map((m) => [m.ref, { content: [{ type: 'text', text: typeof m.result === 'string' ? m.result : JSON.stringify(m.result) }], isError: false }]));
}

/** The differing words of the request as a diff (`- recorded` / `+ now`), from replay's one-line cause. */
function requestDiff(cause: string): string {
  const m = /: ("(?:[^"\\]|\\.)*"|nothing) recorded, ("(?:[^"\\]|\\.)*"|nothing) now/.exec(cause);
  if (!m) return '';
  return `\n  - recorded: ${m[1]}\n  + now:      ${m[2]}`;
}

function at(test: TestRun, range = test.range): Omit<TestFailure, 'message'> {
  return { file: test.file, line: range.start.line, column: range.start.column };
}
