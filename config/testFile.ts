// Parses a `*.sqtest.hcl` file (the tests of `squadron test`) into TestRun values: which mission to
// run with what inputs, replayed from a cassette or live, which tools the test answers itself, and
// the assertions (kept as expressions: they are evaluated after the run, against what it stored).
// Every problem is a diagnostic with a position; checks against the loaded config are in testCheck.ts.

import { dirname, isAbsolute, resolve } from 'node:path';
import { evaluate, parseHcl, stdlibFunctions, toStringValue, typeName, type Attribute, type Block, type Body, type Diagnostic, type Expression, type Range, type Value } from './hcl/index.js';
import { diagnosticAt } from './hcl/index.js';
import { didYouMean } from './hcl/index.js';
import { readHclFile } from './files.js';

export interface TestAssert {
  condition: Expression;
  /** The message shown when the condition is false (evaluated after the run, like the condition). */
  errorMessage: Expression;
  range: Range;
}

export interface TestMock {
  /** The tool ref as written: `builtins.http.post`, `tools.lookup`, `mcp.crm.get_customer`. */
  ref: string;
  result: Value;
  range: Range;
}

export interface TestRun {
  name: string;
  file: string;
  range: Range;
  mission: string;
  missionRange: Range;
  inputs: Record<string, string>;
  /** Absolute path of the cassette a replay reads (and `--record` writes). */
  replay?: string;
  live: boolean;
  trials: number;
  passAt: number;
  mocks: TestMock[];
  asserts: TestAssert[];
  /** The run must fail: `true`, or these tasks must be among the failed ones. */
  expectFailures?: { tasks: string[]; range: Range };
  /** Config variables for this run (over the file's `variables` block and `--var`). */
  variables: Record<string, string>;
}

export interface TestFile {
  path: string;
  source: string;
  runs: TestRun[];
  diagnostics: Diagnostic[];
}

const RUN_ATTRIBUTES = ['mission', 'inputs', 'replay', 'live', 'trials', 'pass_at', 'expect_failures'] as const;
const RUN_BLOCKS = ['mock_tool', 'assert', 'variables'] as const;
const NAME = /^[a-z_][a-z0-9_]*$/;

export function readTestFile(path: string): TestFile {
  const read = readHclFile(path);
  if ('problem' in read) return { path, source: '', runs: [], diagnostics: [read.problem] };
  return parseTestFile(read.text, path);
}

export function parseTestFile(source: string, path: string): TestFile {
  const parsed = parseHcl(source, path);
  const diags = [...parsed.diagnostics];
  const body = parsed.file.body;
  for (const attr of body.attributes) diags.push(at(attr.nameRange, 'SCH001', `Unknown attribute "${attr.name}" in a test file.`, 'A test file holds `run` blocks and an optional `variables` block.'));
  let fileVars: Record<string, string> = {};
  const runs: TestRun[] = [];
  const seen = new Map<string, Range>();
  for (const block of body.blocks) {
    if (block.type === 'variables') {
      fileVars = { ...fileVars, ...readVariables(block, diags) };
      continue;
    }
    if (block.type !== 'run') {
      diags.push(at(block.typeRange, 'SCH002', `Unknown block type "${block.type}" in a test file.`, hintFor(block.type, ['run', 'variables'])));
      continue;
    }
    const run = readRun(block, path, fileVars, diags);
    if (!run) continue;
    const first = seen.get(run.name);
    if (first) {
      diags.push(at(block.labelRanges[0] ?? block.typeRange, 'SCH008', `Duplicate run "${run.name}": a test file names each run once (first at line ${first.start.line}).`));
      continue;
    }
    seen.set(run.name, block.range);
    runs.push(run);
  }
  return { path, source, runs, diagnostics: diags };
}

function readRun(block: Block, file: string, fileVars: Record<string, string>, diags: Diagnostic[]): TestRun | undefined {
  if (block.labels.length !== 1) {
    diags.push(at(block.typeRange, 'SCH006', `A run block takes one label, its name: run "refund_goes_to_billing" { … } (found ${block.labels.length}).`));
    return undefined;
  }
  const name = block.labels[0]!;
  if (!NAME.test(name)) diags.push(at(block.labelRanges[0]!, 'SCH009', `The run name "${name}" does not match ^[a-z_][a-z0-9_]*$.`));
  const body = block.body;
  const attrs = attributes(body, RUN_ATTRIBUTES, 'run', diags);
  for (const b of body.blocks) {
    if (!(RUN_BLOCKS as readonly string[]).includes(b.type)) diags.push(at(b.typeRange, 'SCH002', `Unknown block type "${b.type}" in run "${name}".`, hintFor(b.type, RUN_BLOCKS)));
  }
  const missionAttr = attrs.get('mission');
  let mission = '';
  let missionRange = block.typeRange;
  if (!missionAttr) diags.push(at(block.openBraceRange, 'SCH003', `run "${name}" has no mission: set mission = missions.<name>.`));
  else {
    missionRange = missionAttr.expr.range;
    const e = missionAttr.expr;
    if (e.kind === 'ScopeTraversal' && e.root === 'missions' && e.steps.length === 1 && e.steps[0]!.kind === 'GetAttr') mission = e.steps[0]!.name;
    else diags.push(at(e.range, 'REF006', 'mission must be a reference to a mission: mission = missions.<name>.'));
  }
  const run: TestRun = {
    name,
    file,
    range: block.range,
    mission,
    missionRange,
    inputs: readInputs(attrs.get('inputs'), diags),
    live: readBool(attrs.get('live'), diags) ?? false,
    trials: readCount(attrs.get('trials'), diags) ?? 1,
    passAt: 0,
    mocks: [],
    asserts: [],
    variables: { ...fileVars },
  };
  run.passAt = readCount(attrs.get('pass_at'), diags) ?? run.trials;
  const replayAttr = attrs.get('replay');
  const replay = replayAttr ? readString(replayAttr, diags) : undefined;
  if (replay !== undefined) run.replay = isAbsolute(replay) ? replay : resolve(dirname(file), replay);
  if (replayAttr && run.live) diags.push(at(replayAttr.range, 'SCH012', `run "${name}" sets both replay and live = true: a run replays a cassette or calls the models, not both.`));
  if (!run.live && (attrs.get('trials') || attrs.get('pass_at'))) {
    diags.push(at((attrs.get('trials') ?? attrs.get('pass_at'))!.range, 'TST004', `trials and pass_at are for live runs: a replay gives the same answer every time.`, 'set live = true, or remove trials and pass_at'));
  }
  if (run.passAt > run.trials) diags.push(at(attrs.get('pass_at')!.expr.range, 'SCH013', `pass_at (${run.passAt}) is more than trials (${run.trials}).`));
  const failures = attrs.get('expect_failures');
  if (failures) {
    const tasks = readExpectFailures(failures.expr, diags);
    if (tasks) run.expectFailures = { tasks, range: failures.range };
  }
  for (const b of body.blocks) {
    if (b.type === 'mock_tool') {
      const mock = readMock(b, diags);
      if (mock) run.mocks.push(mock);
    } else if (b.type === 'assert') {
      const a = readAssert(b, diags);
      if (a) run.asserts.push(a);
    } else if (b.type === 'variables') {
      run.variables = { ...run.variables, ...readVariables(b, diags) };
    }
  }
  return run;
}

function readMock(block: Block, diags: Diagnostic[]): TestMock | undefined {
  if (block.labels.length !== 1) {
    diags.push(at(block.typeRange, 'SCH006', 'A mock_tool block takes one label, the tool ref: mock_tool "builtins.http.post" { result = … }.'));
    return undefined;
  }
  const attrs = attributes(block.body, ['result'], 'mock_tool', diags);
  for (const b of block.body.blocks) diags.push(at(b.typeRange, 'SCH002', `Unknown block type "${b.type}" in mock_tool.`));
  const result = attrs.get('result');
  if (!result) {
    diags.push(at(block.openBraceRange, 'SCH003', 'mock_tool has no result: set result = the value the tool returns.'));
    return undefined;
  }
  const value = constant(result.expr, diags);
  return value === undefined ? undefined : { ref: block.labels[0]!, result: value, range: block.labelRanges[0]! };
}

function readAssert(block: Block, diags: Diagnostic[]): TestAssert | undefined {
  if (block.labels.length !== 0) diags.push(at(block.labelRanges[0]!, 'SCH006', 'An assert block takes no label.'));
  const attrs = attributes(block.body, ['condition', 'error_message'], 'assert', diags);
  for (const b of block.body.blocks) diags.push(at(b.typeRange, 'SCH002', `Unknown block type "${b.type}" in assert.`));
  const condition = attrs.get('condition');
  const message = attrs.get('error_message');
  if (!condition) diags.push(at(block.openBraceRange, 'SCH003', 'assert has no condition.'));
  if (!message) diags.push(at(block.openBraceRange, 'SCH003', 'assert has no error_message: say what went wrong when the condition is false.'));
  if (!condition || !message) return undefined;
  return { condition: condition.expr, errorMessage: message.expr, range: condition.range };
}

function readExpectFailures(e: Expression, diags: Diagnostic[]): string[] | undefined {
  if (e.kind === 'Literal' && e.value === true) return [];
  if (e.kind === 'Tuple') {
    const tasks: string[] = [];
    for (const item of e.items) {
      if (item.kind === 'ScopeTraversal' && item.root === 'tasks' && item.steps.length === 1 && item.steps[0]!.kind === 'GetAttr') tasks.push(item.steps[0]!.name);
      else diags.push(at(item.range, 'REF006', 'expect_failures lists tasks: expect_failures = [tasks.<name>, …].'));
    }
    return tasks;
  }
  diags.push(at(e.range, 'SCH007', 'expect_failures is true (the run must fail) or a list of the tasks that must fail: [tasks.<name>].'));
  return undefined;
}

function readVariables(block: Block, diags: Diagnostic[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of block.body.blocks) diags.push(at(b.typeRange, 'SCH002', `Unknown block type "${b.type}" in variables.`));
  for (const attr of block.body.attributes) {
    const v = readString(attr, diags);
    if (v !== undefined) out[attr.name] = v;
  }
  return out;
}

function readInputs(attr: Attribute | undefined, diags: Diagnostic[]): Record<string, string> {
  if (!attr) return {};
  const value = constant(attr.expr, diags);
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    diags.push(at(attr.expr.range, 'SCH007', `inputs must be an object ({ topic = "tides" }), not ${typeName(value)}.`));
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/** Attributes by name; unknown ones are reported. */
function attributes(body: Body, allowed: readonly string[], where: string, diags: Diagnostic[]): Map<string, Attribute> {
  const out = new Map<string, Attribute>();
  for (const attr of body.attributes) {
    if (!allowed.includes(attr.name)) diags.push(at(attr.nameRange, 'SCH001', `Unknown attribute "${attr.name}" in ${where}.`, hintFor(attr.name, allowed)));
    else out.set(attr.name, attr);
  }
  return out;
}

/** A value written as a constant (literals, objects, lists, standard functions): no references. */
function constant(e: Expression, diags: Diagnostic[]): Value | undefined {
  const result = evaluate(e, { variables: {}, functions: stdlibFunctions });
  if (result.diagnostics.length > 0) {
    diags.push(...result.diagnostics);
    return undefined;
  }
  return result.value;
}

function readString(attr: Attribute, diags: Diagnostic[]): string | undefined {
  const v = constant(attr.expr, diags);
  if (v === undefined) return undefined;
  const s = toStringValue(v);
  if (!s.ok) {
    diags.push(at(attr.expr.range, 'SCH007', `${attr.name} must be a string, not ${typeName(v)}.`));
    return undefined;
  }
  return s.value;
}

function readBool(attr: Attribute | undefined, diags: Diagnostic[]): boolean | undefined {
  if (!attr) return undefined;
  const v = constant(attr.expr, diags);
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') {
    diags.push(at(attr.expr.range, 'SCH007', `${attr.name} must be true or false, not ${typeName(v)}.`));
    return undefined;
  }
  return v;
}

function readCount(attr: Attribute | undefined, diags: Diagnostic[]): number | undefined {
  if (!attr) return undefined;
  const v = constant(attr.expr, diags);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 100) {
    diags.push(at(attr.expr.range, 'SCH013', `${attr.name} must be a whole number from 1 to 100.`));
    return undefined;
  }
  return v;
}

function hintFor(name: string, allowed: readonly string[]): string | undefined {
  return didYouMean(name, new Set(allowed)) ?? `expected one of: ${allowed.join(', ')}`;
}

function at(range: Range, code: string, message: string, hint?: string): Diagnostic {
  return diagnosticAt(range, 'error', code, message, hint);
}
