// The assertions of squadron test: conditions with HCL's standard functions read `run`; judge()
// questions are collected in a first pass, asked once each, and their verdicts read in the second.

import { describe, expect, test } from 'vitest';
import { parseTestFile } from '../../config/testFile.js';
import { evaluateAsserts, type Judge } from '../../runtime/testing/assertions.js';

function asserts(conditions: string[]) {
  const body = conditions.map((c, i) => `  assert {\n    condition     = ${c}\n    error_message = "failed ${i} with \${run.status}"\n  }\n`).join('');
  const file = parseTestFile(`run "a" {\n  mission = missions.m\n${body}}\n`, '/t.sqtest.hcl');
  expect(file.diagnostics).toEqual([]);
  return file.runs[0]!.asserts;
}

const run = { status: 'completed', cost_usd: 0.1, tools_called: ['builtins.http.get'], tasks: { reply: { output: 'Hello, dear customer', summary: 'ok' } } };

describe('evaluateAsserts', () => {
  test('a true condition passes; a false one fails with its evaluated error_message at its line', async () => {
    const out = await evaluateAsserts(asserts(['run.status == "completed"', 'contains(run.tools_called, "builtins.http.post")']), run, async () => { throw new Error('no judge'); });
    expect(out.map((o) => [o.passed, o.message, o.line, o.column])).toEqual([
      [true, undefined, 4, 5],
      [false, 'failed 1 with completed', 8, 5],
    ]);
  });

  test('a condition that is not a bool, or reads a missing field, fails saying why', async () => {
    const out = await evaluateAsserts(asserts(['run.cost_usd', 'run.tasks.reply.missing == 1']), run, async () => { throw new Error('no judge'); });
    expect(out[0]!.message).toBe('the condition is not true or false (0.1)');
    expect(out[1]!.message).toMatch(/^the condition could not be evaluated: .*missing/);
  });

  test('each judge question is asked once, and its verdict decides the condition', async () => {
    const asked: string[] = [];
    const judge: Judge = async (q) => {
      asked.push(`${q.question}|${q.value}`);
      return { pass: q.value.includes('dear'), reason: 'r', costUsd: 0.01, tokens: 10 };
    };
    const out = await evaluateAsserts(
      asserts(['judge("polite?", run.tasks.reply.output)', 'judge("polite?", run.tasks.reply.output) && run.status == "completed"', 'judge("polite?", run.tasks.reply.summary)']),
      run,
      judge,
    );
    expect(asked).toEqual(['polite?|Hello, dear customer', 'polite?|ok']);
    expect(out.map((o) => o.passed)).toEqual([true, true, false]);
    expect(out[2]!.judged).toEqual([{ question: 'polite?', value: 'ok', pass: false, reason: 'r', costUsd: 0.01, tokens: 10 }]);
  });

  test('a judge that cannot be asked fails the assertion instead of throwing', async () => {
    const out = await evaluateAsserts(asserts(['judge("polite?", run.status)']), run, async () => { throw new Error('network down'); });
    // The verdict is a no: the condition is false and the assert's own message is shown.
    expect(out[0]).toMatchObject({ passed: false, message: 'failed 0 with completed' });
    expect(out[0]!.judged[0]!.reason).toBe('the judge could not be asked: network down');
  });
});
