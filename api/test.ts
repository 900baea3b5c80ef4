// `squadron test`: finds the `*.sqtest.hcl` files of a config, checks them (and the config) before
// anything runs, then runs their tests: test files in parallel (bounded), the runs of one file in
// order. A config or test-file error is thrown as `invalid_config` with every diagnostic.

import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Diagnostic } from '../config/hcl/diagnostic.js';
import { loadConfig } from '../config/load.js';
import { checkTestFile } from '../config/testCheck.js';
import { discoverTests } from '../config/testDiscovery.js';
import { readTestFile, type TestFile, type TestRun } from '../config/testFile.js';
import { SquadronError } from './errors.js';
import { openProject, type LoadedProject } from './project.js';
import { runTest, type TestResult } from './testRun.js';

export type { TestResult, TestFailure, TrialResult, TestStatus } from './testRun.js';

export interface TestRequest {
  /** The config folder (tests beside it and under its tests/ folder), or one test file. */
  path: string;
  /** Only the runs whose name contains this text. */
  filter?: string;
  /** Run the replayed tests live once and write the cassettes they replay. */
  record?: boolean;
  /** `--var` values, under each file's and run's `variables`. */
  vars?: Readonly<Record<string, string>>;
  env?: NodeJS.ProcessEnv;
  /** Test files run at once (default: the cores, at most 4). */
  concurrency?: number;
  /** Keep each trial's database and workspace in a folder of its own under this one (default: removed). */
  keepDir?: string;
  /** Told each test's result as it finishes. */
  onResult?: (result: TestResult) => void;
}

export interface TestReport {
  configPath: string;
  files: { path: string; tests: TestResult[] }[];
  passed: number;
  failed: number;
  errors: number;
}

export interface CheckedTests {
  configPath: string;
  files: TestFile[];
  /** Errors and warnings of the config and of every test file. */
  diagnostics: Diagnostic[];
  sources: ReadonlyMap<string, string>;
}

/** Loads the config and the test files and checks them together (what `validate` reports too). */
export function checkTests(path: string, opts: { vars?: Readonly<Record<string, string>>; env?: NodeJS.ProcessEnv; unsetVariables?: 'unknown' } = {}): CheckedTests {
  const found = discoverTests(resolve(path));
  const loaded = loadConfig(found.configPath, { vars: opts.vars ?? {}, env: opts.env ?? process.env, ...(opts.unsetVariables ? { unsetVariables: opts.unsetVariables } : {}) });
  const files = found.testFiles.map(readTestFile);
  const diagnostics = [...loaded.diagnostics];
  const sources = new Map(loaded.sources ?? []);
  for (const file of files) {
    sources.set(file.path, file.source);
    diagnostics.push(...file.diagnostics);
    if (loaded.graph) diagnostics.push(...checkTestFile(file, loaded.graph.missions));
  }
  return { configPath: found.configPath, files, diagnostics, sources };
}

export async function test(req: TestRequest): Promise<TestReport> {
  const env = req.env ?? process.env;
  const checked = checkTests(req.path, { ...(req.vars ? { vars: req.vars } : {}), env });
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    throw new SquadronError('invalid_config', `the configuration or its tests have ${errors.length} error${errors.length === 1 ? '' : 's'}`, checked.diagnostics, checked.sources);
  }
  const projects = new Map<string, LoadedProject>();
  const projectFor = (run: TestRun): LoadedProject => {
    const vars = { ...req.vars, ...run.variables };
    const key = JSON.stringify(Object.entries(vars).sort());
    let project = projects.get(key);
    if (!project) {
      project = openProject(checked.configPath, { vars, env });
      projects.set(key, project);
    }
    return project;
  };
  const selected = checked.files.map((f) => ({ path: f.path, runs: f.runs.filter((r) => req.filter === undefined || r.name.includes(req.filter)) })).filter((f) => f.runs.length > 0);
  const results = await inParallel(selected, req.concurrency ?? Math.min(4, availableParallelism()), async (file) => {
    const tests: TestResult[] = [];
    for (const run of file.runs) {
      const result = await runTest(run, { project: projectFor(run), record: Boolean(req.record), env, ...(req.keepDir !== undefined ? { keepDir: req.keepDir } : {}) });
      req.onResult?.(result);
      tests.push(result);
    }
    return { path: file.path, tests };
  });
  const all = results.flatMap((f) => f.tests);
  return {
    configPath: checked.configPath,
    files: results,
    passed: all.filter((t) => t.status === 'passed').length,
    failed: all.filter((t) => t.status === 'failed').length,
    errors: all.filter((t) => t.status === 'error').length,
  };
}

/** Maps `items` with at most `limit` at once, keeping their order. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return out;
}
