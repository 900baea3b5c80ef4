// Checks a parsed test file against the loaded config: the mission exists, its inputs are declared,
// expect_failures names its tasks, and every `run.…` an assertion reads is in the schema of what a
// test can read (RUN_FIELDS, documented in docs/concepts/testing.md). Errors carry positions.

import type { Mission } from './graph.js';
import { diagnosticAt, didYouMean, type Diagnostic, type Expression, type Range } from './hcl/index.js';
import { freeTraversals } from './traversals.js';
import { readTestFile, type TestFile } from './testFile.js';
import { discoverTests } from './testDiscovery.js';

/** The fields of `run`, as assertions read them after the run. */
export const RUN_FIELDS = ['status', 'cost_usd', 'tokens', 'turns', 'tasks', 'tools_called', 'tool_calls', 'approvals', 'budget_stopped', 'error'] as const;
/** The fields of `run.tasks.<name>`. */
export const TASK_FIELDS = ['status', 'output', 'summary', 'route', 'items', 'error'] as const;
/** The functions a condition may call besides HCL's standard ones. */
export const TEST_FUNCTIONS = ['judge'] as const;

/** What a test file is checked against: each mission's name, inputs and tasks. */
export type MissionShape = Pick<Mission, 'name'> & { inputs: readonly { name: string }[]; tasks: readonly { name: string }[] };

/** The problems of the test files of the config at `configPath` (what validate adds to its own), with their text. */
export function testFileProblems(configPath: string, missions: readonly MissionShape[]): { diagnostics: Diagnostic[]; sources: Map<string, string> } {
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  for (const path of discoverTests(configPath).testFiles) {
    const file = readTestFile(path);
    sources.set(path, file.source);
    diagnostics.push(...file.diagnostics, ...checkTestFile(file, missions));
  }
  return { diagnostics, sources };
}

export function checkTestFile(file: TestFile, missions: readonly MissionShape[]): Diagnostic[] {
  const diags: Diagnostic[] = [];
  for (const run of file.runs) {
    if (run.mission === '') continue;
    const mission = missions.find((m) => m.name === run.mission);
    if (!mission) {
      const names = missions.map((m) => m.name);
      diags.push(diagnosticAt(run.missionRange, 'error', 'TST001', `run "${run.name}": no mission "${run.mission}" in the config.`, didYouMean(run.mission, names) ?? `missions: ${names.join(', ') || 'none'}`));
      continue;
    }
    const tasks = mission.tasks.map((t) => t.name);
    for (const input of Object.keys(run.inputs)) {
      if (!mission.inputs.some((i) => i.name === input)) {
        diags.push(diagnosticAt(run.missionRange, 'error', 'TST006', `run "${run.name}": mission "${mission.name}" has no input "${input}".`, didYouMean(input, mission.inputs.map((i) => i.name)) ?? `inputs: ${mission.inputs.map((i) => i.name).join(', ') || 'none'}`));
      }
    }
    for (const t of run.expectFailures?.tasks ?? []) {
      if (!tasks.includes(t)) diags.push(diagnosticAt(run.expectFailures!.range, 'error', 'TST003', `run "${run.name}": expect_failures names task "${t}", which mission "${mission.name}" does not have.`, didYouMean(t, tasks)));
    }
    for (const a of run.asserts) {
      checkReads(a.condition, tasks, diags);
      checkReads(a.errorMessage, tasks, diags);
    }
  }
  return diags;
}

function checkReads(expr: Expression, tasks: readonly string[], diags: Diagnostic[]): void {
  for (const t of freeTraversals(expr)) {
    if (t.root !== 'run') {
      diags.push(diagnosticAt(t.rootRange, 'error', 'TST005', `An assertion reads "${t.root}": assertions read what the run stored, under run.`, 'e.g. run.status, run.tasks.<task>.output, run.tools_called'));
      continue;
    }
    const [field, task, taskField] = t.steps;
    if (field === undefined) continue;
    if (!isName(field) || !(RUN_FIELDS as readonly string[]).includes(field.name)) {
      unknownField(field.range, 'run', isName(field) ? field.name : '[…]', RUN_FIELDS, diags);
      continue;
    }
    if (field.name !== 'tasks' || task === undefined || !isName(task)) continue;
    if (!tasks.includes(task.name)) {
      diags.push(diagnosticAt(task.range, 'error', 'TST003', `run.tasks.${task.name}: the mission has no task "${task.name}".`, didYouMean(task.name, tasks) ?? `tasks: ${tasks.join(', ')}`));
      continue;
    }
    if (taskField !== undefined && isName(taskField) && !(TASK_FIELDS as readonly string[]).includes(taskField.name)) {
      unknownField(taskField.range, `run.tasks.${task.name}`, taskField.name, TASK_FIELDS, diags);
    }
  }
}

function unknownField(range: Range, where: string, name: string, fields: readonly string[], diags: Diagnostic[]): void {
  diags.push(diagnosticAt(range, 'error', 'TST002', `${where} has no field "${name}".`, didYouMean(name, fields) ?? `fields: ${fields.join(', ')}`));
}

function isName(step: { kind: string }): step is { kind: 'GetAttr'; name: string; range: Range } {
  return step.kind === 'GetAttr';
}
