// The run's entry points (runtime/run/run.ts, resume.ts, execute.ts) on their own: a real SQLite
// file, the config loaded as the CLI loads it, and a scripted in-process model (RunEnvironment's
// modelClient). A run executes its tasks in order and closes with its status and its lease released;
// an interrupted run resumes without running its completed tasks again; a run that must not start is
// refused before anything is stored or sent.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resumeRun, RunBusy, RunRefused, startRun, type RunEnvironment, type StartRequest } from '../../../runtime/run/run.js';
import { ModelCallError, type ModelClient, type ModelRequest } from '../../../runtime/providers/types.js';
import { openDatabase } from '../../../store/index.js';
import { loadMission, MODEL_BLOCK, use, type Script } from '../orchestration.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const HCL = `${MODEL_BLOCK}
mission "m" {
  commander { model = models.m.claude_sonnet_4_6 }
  input "letters" {
    type     = "list"
    default  = []
  }
  dataset "letters" {
    bind_to = inputs.letters
    schema = {
      id = integer("the letter's number", true)
    }
  }
  task "first" {
    objective = "Do the first thing."
    tools     = [builtins.utils.current_time]
  }
  task "second" {
    objective  = "Do the second thing."
    tools      = [builtins.utils.current_time]
    depends_on = [tasks.first]
  }
  task "per_letter" {
    direct    = true
    objective = "Handle letter \${item.id}."
    tools     = [builtins.utils.current_time]
    iterator {
      dataset  = datasets.letters
      parallel = true
    }
  }
}
`;

function setup(script: Script) {
  const { graph, mission } = loadMission(HCL);
  const dir = mkdtempSync(join(tmpdir(), 'squadron-run-'));
  dirs.push(dir);
  const requests: ModelRequest[] = [];
  const client: ModelClient = {
    provider: 'anthropic',
    complete: async (request) => {
      requests.push(request);
      return script(request);
    },
  };
  const interrupt = new AbortController();
  const env: RunEnvironment = { graph, configPath: dir, dbPath: join(dir, 'squadron.db'), interrupt: interrupt.signal, modelClient: () => client };
  const request = (extra: Partial<StartRequest> = {}): StartRequest => ({
    mission,
    inputs: { letters: [] },
    options: { overrides: { noTools: false, skills: [], noSkills: false } },
    workspaceFor: (runId) => join(dir, 'workspace', runId),
    ...extra,
  });
  return { env, request, requests, interrupt, dir };
}

/** Each commander completes its task at once, naming it in its summary. */
const completeAtOnce: Script = (request) => use('task_complete', { summary: `${request.trace.task} is done` });

describe('startRun and resumeRun', () => {
  it("runs the tasks in order, hands on upstream results, and closes the run with its status and lease released", async () => {
    const s = setup(completeAtOnce);
    let started: string | undefined;
    const report = await startRun(s.env, s.request({ onRunId: (id) => (started = id) }));
    expect(report).toMatchObject({ runId: started, mission: 'm', status: 'completed' });
    expect(Object.fromEntries(Object.entries(report.tasks).map(([name, t]) => [name, t.status]))).toEqual({ first: 'completed', second: 'completed', per_letter: 'completed' });
    expect(s.requests.map((r) => r.trace.task)).toEqual(['first', 'second']);
    // The second commander was told what the first achieved.
    expect(s.requests[1]!.system).toContain('first is done');
    const store = await openDatabase(s.env.dbPath);
    expect((await store.runs.get(report.runId))!.status).toBe('completed');
    // The lease is free: another process takes it at once.
    const other = await store.leases.acquire(report.runId, { id: 'own_other', pid: 1, host: 'elsewhere' }, 60_000);
    expect(other.ok).toBe(true);
    await store.close();
  });

  it('resumes an interrupted run without running its completed task again', async () => {
    let interruptNow: (() => void) | undefined;
    const s = setup((request) => {
      // Ctrl-C while the second commander's first call is in flight: the call ends aborted, nothing of it stored.
      if (request.trace.task === 'second') {
        interruptNow?.();
        throw new ModelCallError('the request was aborted', undefined, false, { kind: 'aborted' });
      }
      return completeAtOnce(request);
    });
    interruptNow = () => s.interrupt.abort();
    const first = await startRun(s.env, s.request());
    expect(first.status).toBe('interrupted');
    expect(first.tasks.first!.status).toBe('completed');
    expect(first.tasks.second!.status).not.toBe('completed');

    const again = setup(completeAtOnce);
    const env: RunEnvironment = { ...again.env, graph: s.env.graph, configPath: s.env.configPath, dbPath: s.env.dbPath };
    const resumed = await resumeRun(env, first.runId);
    expect(resumed).toMatchObject({ runId: first.runId, status: 'completed' });
    expect(Object.fromEntries(Object.entries(resumed.tasks).map(([name, t]) => [name, t.status]))).toEqual({ first: 'completed', second: 'completed', per_letter: 'completed' });
    // Only the interrupted task's commander was asked in the second process.
    expect(again.requests.map((r) => r.trace.task)).toEqual(['second']);
  });

  it('refuses a run id already stored, and dataset items that do not match the schema, before anything is sent', async () => {
    const s = setup(completeAtOnce);
    const report = await startRun(s.env, s.request());
    const sent = s.requests.length;
    await expect(startRun(s.env, s.request({ runId: report.runId }))).rejects.toThrow(new RunBusy(`run ${report.runId} is already stored`));
    const refused = await startRun(s.env, s.request({ inputs: { letters: [{ name: 'x' }, { id: 2 }] } })).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RunRefused);
    expect((refused as RunRefused).message).toMatch(/^1 dataset item does not match the schema; nothing ran:\n {2}\S/);
    expect(s.requests.length).toBe(sent);
    const store = await openDatabase(s.env.dbPath);
    expect((await store.runs.latestForMission('m', s.env.configPath))!.id).toBe(report.runId);
    await store.close();
  });
});
