// Evaluates a test run's assert blocks against `run` (runObject.ts) with HCL's standard functions
// and judge(). judge() needs a model call, which an HCL function (synchronous) cannot make, so
// conditions are evaluated twice: the first pass collects the judge questions (judge is unknown
// then), the questions are put to the judge model, and the second pass reads the verdicts.

import { evaluate, stdlibFunctions, toStringValue, type Diagnostic, type HclFunction, type ObjectValue, type Value } from '../../config/hcl/index.js';
import { isUnknown, unknown } from '../../config/hcl/value.js';
import type { TestAssert } from '../../config/testFile.js';
import type { JudgeQuestion, JudgeVerdict } from './judge.js';

export interface AssertOutcome {
  passed: boolean;
  /** The assert's error_message (or why the condition could not be evaluated) when it failed. */
  message?: string;
  file: string;
  line: number;
  column: number;
  /** What the judge said, for each judge() the condition called. */
  judged: (JudgeVerdict & JudgeQuestion)[];
}

export type Judge = (q: JudgeQuestion) => Promise<JudgeVerdict>;

export async function evaluateAsserts(asserts: readonly TestAssert[], run: ObjectValue, judge: Judge): Promise<AssertOutcome[]> {
  const asked = new Map<string, JudgeQuestion>();
  const collect: HclFunction = {
    minArgs: 2,
    maxArgs: 2,
    call: (args) => {
      const q = question(args);
      asked.set(key(q), q);
      return unknown;
    },
  };
  for (const a of asserts) evaluate(a.condition, { variables: { run }, functions: { ...stdlibFunctions, judge: collect } });
  const verdicts = new Map<string, JudgeVerdict & JudgeQuestion>();
  for (const [k, q] of asked) {
    try {
      verdicts.set(k, { ...q, ...(await judge(q)) });
    } catch (error) {
      verdicts.set(k, { ...q, pass: false, reason: `the judge could not be asked: ${error instanceof Error ? error.message : String(error)}`, costUsd: 0, tokens: 0 });
    }
  }
  const answer: HclFunction = { minArgs: 2, maxArgs: 2, call: (args) => verdicts.get(key(question(args)))?.pass ?? unknown };
  return asserts.map((a) => outcome(a, run, answer, verdicts));
}

function outcome(a: TestAssert, run: ObjectValue, judge: HclFunction, verdicts: ReadonlyMap<string, JudgeVerdict & JudgeQuestion>): AssertOutcome {
  const ctx = { variables: { run }, functions: { ...stdlibFunctions, judge } };
  const judged: AssertOutcome['judged'] = [];
  const spy: HclFunction = {
    ...judge,
    call: (args, c) => {
      const v = verdicts.get(key(question(args)));
      if (v) judged.push(v);
      return judge.call(args, c);
    },
  };
  const result = evaluate(a.condition, { ...ctx, functions: { ...ctx.functions, judge: spy } });
  const base = { file: a.range.file, line: a.range.start.line, column: a.range.start.column, judged };
  if (result.diagnostics.length > 0) return { ...base, passed: false, message: `the condition could not be evaluated: ${describe(result.diagnostics)}` };
  if (result.value === true) return { ...base, passed: true };
  if (result.value !== false) return { ...base, passed: false, message: `the condition is ${isUnknown(result.value) ? 'unknown' : `not true or false (${JSON.stringify(result.value)})`}` };
  const message = evaluate(a.errorMessage, ctx);
  const text = message.diagnostics.length === 0 ? toStringValue(message.value) : undefined;
  return { ...base, passed: false, message: text?.ok ? text.value : `(error_message could not be evaluated: ${describe(message.diagnostics)})` };
}

function question(args: Value[]): JudgeQuestion {
  const [q, v] = args;
  return { question: typeof q === 'string' ? q : JSON.stringify(q), value: typeof v === 'string' ? v : JSON.stringify(v, null, 2) };
}

function key(q: JudgeQuestion): string {
  return JSON.stringify([q.question, q.value]);
}

function describe(diags: readonly Diagnostic[]): string {
  return diags.map((d) => `${d.message} (line ${d.line}, column ${d.column})`).join('; ');
}
