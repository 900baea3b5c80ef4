// The test-file language of squadron test: run blocks parse into TestRun values, and every mistake
// is a diagnostic with its code and position, before anything runs.

import { describe, expect, test } from 'vitest';
import { checkTestFile, type MissionShape } from '../../config/testCheck.js';
import { parseTestFile } from '../../config/testFile.js';

const missions: MissionShape[] = [{ name: 'triage', inputs: [{ name: 'ticket' }], tasks: [{ name: 'classify' }, { name: 'reply' }] }];

function problems(text: string): string[] {
  const file = parseTestFile(text, '/p/t.sqtest.hcl');
  return [...file.diagnostics, ...checkTestFile(file, missions)].map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
}

describe('parseTestFile', () => {
  test('reads a run block: mission, inputs, replay relative to the file, mocks, asserts, variables', () => {
    const file = parseTestFile(
      `variables {\n  region = "eu"\n}\nrun "refund" {\n  mission = missions.triage\n  inputs  = { ticket = "refund", count = 2 }\n  replay  = "cassettes/refund.jsonl"\n  mock_tool "builtins.http.post" {\n    result = { status = 200 }\n  }\n  variables {\n    tier = "gold"\n  }\n  assert {\n    condition     = run.status == "completed"\n    error_message = "must complete"\n  }\n}\n`,
      '/p/tests/t.sqtest.hcl',
    );
    expect(file.diagnostics).toEqual([]);
    const [run] = file.runs;
    expect(run).toMatchObject({ name: 'refund', mission: 'triage', inputs: { ticket: 'refund', count: '2' }, replay: '/p/tests/cassettes/refund.jsonl', live: false, trials: 1, passAt: 1 });
    expect(run!.variables).toEqual({ region: 'eu', tier: 'gold' });
    expect(run!.mocks).toMatchObject([{ ref: 'builtins.http.post', result: { status: 200 } }]);
    expect(run!.asserts[0]!.range.start).toMatchObject({ line: 15, column: 5 });
  });

  test('trials and pass_at default to all trials passing, and need live', () => {
    const live = parseTestFile(`run "a" {\n  mission = missions.triage\n  live    = true\n  trials  = 5\n}\n`, 'x.sqtest.hcl');
    expect(live.runs[0]).toMatchObject({ trials: 5, passAt: 5 });
    expect(problems(`run "a" {\n  mission = missions.triage\n  trials  = 5\n}\n`)).toEqual(['3:3 TST004 trials and pass_at are for live runs: a replay gives the same answer every time.']);
    expect(problems(`run "a" {\n  mission = missions.triage\n  live    = true\n  trials  = 2\n  pass_at = 3\n}\n`)).toEqual(['5:13 SCH013 pass_at (3) is more than trials (2).']);
  });

  test('expect_failures is true or a list of tasks', () => {
    const file = parseTestFile(`run "a" {\n  mission         = missions.triage\n  expect_failures = [tasks.classify]\n}\nrun "b" {\n  mission         = missions.triage\n  expect_failures = true\n}\n`, 'x.sqtest.hcl');
    expect(file.runs.map((r) => r.expectFailures?.tasks)).toEqual([['classify'], []]);
    expect(problems(`run "a" {\n  mission         = missions.triage\n  expect_failures = [tasks.nope]\n}\n`)).toEqual(['3:3 TST003 run "a": expect_failures names task "nope", which mission "triage" does not have.']);
  });

  test('unknown attributes and blocks, a missing mission, replay with live, a duplicate run', () => {
    expect(
      problems(`run "a" {\n  mision = missions.triage\n  asert {\n  }\n}\nrun "b" {\n  mission = missions.triage\n  replay  = "x.jsonl"\n  live    = true\n}\nrun "b" {\n  mission = missions.triage\n}\n`),
    ).toEqual([
      '2:3 SCH001 Unknown attribute "mision" in run.',
      '3:3 SCH002 Unknown block type "asert" in run "a".',
      '1:9 SCH003 run "a" has no mission: set mission = missions.<name>.',
      '8:3 SCH012 run "b" sets both replay and live = true: a run replays a cassette or calls the models, not both.',
      '11:5 SCH008 Duplicate run "b": a test file names each run once (first at line 6).',
    ]);
  });
});

describe('checkTestFile', () => {
  test('an unknown mission and an undeclared input', () => {
    expect(problems(`run "a" {\n  mission = missions.triag\n}\nrun "b" {\n  mission = missions.triage\n  inputs  = { tiket = "x" }\n}\n`)).toEqual([
      '2:13 TST001 run "a": no mission "triag" in the config.',
      '5:13 TST006 run "b": mission "triage" has no input "tiket".',
    ]);
  });

  test('what an assertion reads: run fields, tasks and task fields, nothing but run', () => {
    const text = `run "a" {\n  mission = missions.triage\n  assert {\n    condition     = run.tasks.classify.route == "billing" && run.cost < 1 && run.tasks.nope.status == "x" && run.tasks.reply.outptu == 1 && vars.x\n    error_message = "\${run.statuz}"\n  }\n}\n`;
    expect(problems(text)).toEqual([
      '4:65 TST002 run has no field "cost".',
      '4:87 TST003 run.tasks.nope: the mission has no task "nope".',
      '4:125 TST002 run.tasks.reply has no field "outptu".',
      '4:141 TST005 An assertion reads "vars": assertions read what the run stored, under run.',
      '5:27 TST002 run has no field "statuz".',
    ]);
  });
});
