// `squadron test` through the CLI: *.sqtest.hcl run blocks recorded live against the fake model server
// and replayed from their cassettes, mocked tools that never run, assertions read from the stored
// run (failing ones with their message and source line), a cassette left behind by a prompt change,
// expect_failures, live trials with pass_at, the LLM judge, JUnit output read back by an XML parser,
// and the test-file errors validate and test report with positions.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, OFFLINE_MODEL_BLOCK, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

let site: Server;
let siteUrl = '';
let siteHits = 0;

beforeAll(async () => {
  // The shop the mocked tool would post to: a mocked tool never reaches it.
  site = createServer((_req, res) => {
    siteHits += 1;
    res.end('REAL-RECEIPT');
  });
  siteUrl = await listenLocal(site);
});

afterAll(async () => {
  await closeServer(site);
  removeProjects();
});

function shopMission(server: FakeModelServer, objective = 'Order ${inputs.item} from the shop'): string {
  return `${fakeModelBlock(server)}
mission "shop" {
  commander { model = ${ANTHROPIC_MODEL} }
  input "item" {
    type    = "string"
    default = "tea"
  }
  task "order" {
    objective = "${objective}"
    tools     = [builtins.http.post]
  }
}
`;
}

function shopScript(url: () => string) {
  return turnScript({
    'commander of task "order"': [callAgent('worker', 'Post the order for tea.'), (req) => taskComplete(`Ordered: ${JSON.parse(lastToolResult(req)).answer}`)],
    'worker agent of task "order"': [toolCall('builtins_http_post', { url: `${url()}/orders`, body: 'tea' }), (req) => ({ text: `receipt ${lastToolResult(req)}` })],
  });
}

const SHOP_TEST = `run "orders_tea" {
  mission = missions.shop
  inputs  = { item = "tea" }
  replay  = "cassettes/orders_tea.jsonl"

  mock_tool "builtins.http.post" {
    result = { status = 200, body = "RCPT-1" }
  }

  assert {
    condition     = run.status == "completed" && run.tasks.order.status == "completed"
    error_message = "the order must complete"
  }
  assert {
    condition     = run.tools_called == ["builtins.http.post"] && run.tool_calls[0].mocked && run.tool_calls[0].result.body == "RCPT-1"
    error_message = "the worker posts the order once, answered by the mock"
  }
  assert {
    condition     = run.tool_calls[0].input.body == "tea" && run.tool_calls[0].task == "order" && run.tool_calls[0].agent == "worker"
    error_message = "the worker posts tea"
  }
  assert {
    condition     = length(regexall("RCPT-1", run.tasks.order.summary)) > 0
    error_message = "the summary names the receipt"
  }
}

run "summary_says_nothing" {
  mission = missions.shop
  replay  = "cassettes/orders_tea.jsonl"

  mock_tool "builtins.http.post" {
    result = { status = 200, body = "RCPT-1" }
  }

  assert {
    condition     = run.tasks.order.summary == "nothing"
    error_message = "the summary must say \${run.tasks.order.status == "completed" ? "nothing" : "?"}"
  }
}
`;

describe('squadron test: record, replay, mocks, failures', () => {
  it('records the cassettes live, replays them offline, mocks the tool, and reports a failed assert with its line', async () => {
    let url = siteUrl;
    const script = shopScript(() => url);
    const server = await startFakeModelServer({ respond: script.respond });
    let dir = '';
    try {
      dir = writeProject({ 'mission.hcl': shopMission(server), 'tests/shop.sqtest.hcl': SHOP_TEST });
      const recorded = await runCli(['test', '.', '--record', '--filter', 'orders_tea'], { cwd: dir });
      expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      expect(recorded.stdout).toMatch(/^PASS tests\/shop\.sqtest\.hcl:1 orders_tea \(record, /m);
      expect(recorded.stdout).toContain('1 passed, 0 failed');
      expect(existsSync(join(dir, 'tests', 'cassettes', 'orders_tea.jsonl'))).toBe(true);
      const liveCalls = server.requests.length;
      expect(liveCalls).toBe(4);
    } finally {
      await server.close();
    }
    // The mocked tool never reached the shop.
    expect(siteHits).toBe(0);
    url = 'http://127.0.0.1:1';

    // Offline now: the model server is gone, the cassette answers.
    const replayed = await runCli(['test', dir, '--json'], { cwd: dir });
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1);
    const doc = JSON.parse(replayed.stdout);
    expect(doc.schema_version).toBe(1);
    expect(doc).toMatchObject({ passed: 1, failed: 1, errors: 0 });
    const [passed, failed] = doc.files[0].tests;
    expect(passed).toMatchObject({ name: 'orders_tea', status: 'passed', mode: 'replay', failures: [] });
    expect(passed.trials[0]).toMatchObject({ passed: true, status: 'completed', cost_usd: 0 });
    expect(failed).toMatchObject({ name: 'summary_says_nothing', status: 'failed' });
    expect(failed.failures).toEqual([{ message: 'the summary must say nothing', file: 'tests/shop.sqtest.hcl', line: 37, column: 5 }]);

    // The human report: the message at the assert's position, then its source line.
    const human = await runCli(['test', dir, '--keep', 'kept'], { cwd: dir });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('FAIL tests/shop.sqtest.hcl:28 summary_says_nothing (replay,');
    expect(human.stdout).toContain('  tests/shop.sqtest.hcl:37:5: the summary must say nothing\n    37 |     condition     = run.tasks.order.summary == "nothing"\n');
    expect(human.stdout).toContain('1 passed, 1 failed (2 tests in 1 file)');
    expect(human.stderr).not.toMatch(/\bat .*\.c?js:\d+/);
    // --keep leaves each trial's database to inspect: the ledger holds the call as mocked.
    const kept = /kept: squadron inspect (run_\w+) --db (\S+)/.exec(human.stdout);
    expect(kept, human.stdout).not.toBeNull();
    const inspect = await runCli(['inspect', kept![1]!, '--db', kept![2]!, '--transcript'], { cwd: dir });
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toContain('[builtins.http.post: completed, mocked]');
    expect(inspect.stdout).toContain('{"status":200,"body":"RCPT-1"}');

    // A prompt change: the recorded objective no longer matches, and the test says how.
    writeFileSync(join(dir, 'mission.hcl'), shopMission({ anthropicBaseURL: 'http://127.0.0.1:1', openaiBaseURL: 'http://127.0.0.1:1' } as FakeModelServer, 'Buy ${inputs.item} from the shop'));
    const changed = await runCli(['test', dir, '--filter', 'orders_tea'], { cwd: dir });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('FAIL tests/shop.sqtest.hcl:1 orders_tea (replay,');
    expect(changed.stdout).toContain('the cassette no longer matches what the mission sends');
    expect(changed.stdout).toContain('the task objective differs from the recording: "Order" recorded, "Buy" now');
    expect(changed.stdout).toContain('\n    - recorded: "Order"\n    + now:      "Buy"\n');
    expect(changed.stdout + changed.stderr).not.toMatch(/\bat .*\.c?js:\d+/);
  });
});

describe('squadron test: expect_failures, live trials, the judge, JUnit', () => {
  it('passes a run expected to fail, and fails one that was expected to fail but completed', async () => {
    const script = turnScript({
      'commander of task "broken"': [{ status: 400, errorMessage: 'this model cannot do that' }],
      'commander of task "fine"': [taskComplete('all good')],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "broken" {
    objective = "Fail"
    tools     = [builtins.files.read]
  }
}
mission "ok" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "fine" {
    objective = "Succeed"
    tools     = [builtins.files.read]
  }
}
`,
        'failures.sqtest.hcl': `run "broken_fails" {
  mission         = missions.m
  live            = true
  expect_failures = [tasks.broken]
  assert {
    condition     = run.status == "failed" && run.tasks.broken.status == "failed"
    error_message = "broken fails"
  }
}

run "fine_was_meant_to_fail" {
  mission         = missions.ok
  live            = true
  expect_failures = true
}
`,
      });
      const r = await runCli(['test', dir, '--json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(1);
      const tests = JSON.parse(r.stdout).files[0].tests;
      expect(tests[0]).toMatchObject({ name: 'broken_fails', status: 'passed', mode: 'live' });
      expect(tests[1]).toMatchObject({ name: 'fine_was_meant_to_fail', status: 'failed' });
      expect(tests[1].failures[0]).toMatchObject({ message: 'expect_failures: the run was expected to fail, but it ended completed', line: 14 });
    } finally {
      await server.close();
    }
  });

  it('runs live trials against the model and passes when pass_at of them pass; the judge is asked and priced', async () => {
    let commanderRuns = 0;
    const script = turnScript({
      // Every second trial answers badly: of six trials in a row (two tests of three), 1, 3 and 5 are good.
      'commander of task "reply"': [() => taskComplete(++commanderRuns % 2 === 0 ? 'go away' : 'Thank you for writing, we are glad to help.')],
      'judge of an automated test': [(req) => toolCall('verdict', { pass: !JSON.stringify(req.canonical.messages).includes('go away'), reason: 'judged by the fake model' })],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "support" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "reply" {
    objective = "Reply to the customer"
    tools     = [builtins.files.read]
  }
}
`,
        'tests/polite.sqtest.hcl': `run "mostly_polite" {
  mission = missions.support
  live    = true
  trials  = 3
  pass_at = 2
  assert {
    condition     = judge("Is the reply polite?", run.tasks.reply.summary)
    error_message = "the reply must be polite"
  }
}

run "always_polite" {
  mission = missions.support
  live    = true
  trials  = 3
  pass_at = 3
  assert {
    condition     = judge("Is the reply polite?", run.tasks.reply.summary)
    error_message = "the reply must be polite"
  }
}
`,
      });
      const junit = join(dir, 'junit.xml');
      const r = await runCli(['test', dir, '--json', '--junit', junit], { cwd: dir });
      expect(r.code, r.stderr).toBe(1);
      expect(script.problems).toEqual([]);
      const [mostly, always] = JSON.parse(r.stdout).files[0].tests;
      expect(mostly).toMatchObject({ name: 'mostly_polite', status: 'passed', mode: 'live', pass_at: 2 });
      expect(mostly.trials.map((t: { passed: boolean }) => t.passed)).toEqual([true, false, true]);
      expect(mostly.trials[1].failures[0]).toMatchObject({ message: 'the reply must be polite', line: 7 });
      // The judge was asked the question about the value, and its call was priced like any model call.
      expect(mostly.trials[0].judged[0]).toMatchObject({ question: 'Is the reply polite?', value: 'Thank you for writing, we are glad to help.', pass: true, reason: 'judged by the fake model' });
      expect(mostly.trials[0].judge_cost_usd).toBeGreaterThan(0);
      const judgeRequests = server.requests.filter((q) => q.canonical.system.includes('judge of an automated test'));
      expect(judgeRequests).toHaveLength(6);
      expect(JSON.stringify(judgeRequests[0]!.canonical.messages)).toContain('Question: Is the reply polite?');
      expect(always).toMatchObject({ name: 'always_polite', status: 'failed' });
      expect(always.failures[0].message).toBe('1 of 3 trials passed; pass_at is 3');

      // The JUnit file, read back by an XML parser.
      const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
      expect(xml.testsuites).toMatchObject({ name: 'squadron test', tests: '2', failures: '1', errors: '0' });
      const suite = xml.testsuites.testsuite;
      expect(suite).toMatchObject({ name: 'tests/polite.sqtest.hcl', tests: '2', failures: '1' });
      expect(suite.testcase[0]).toMatchObject({ name: 'mostly_polite', line: '1' });
      expect(suite.testcase[0].failure).toBeUndefined();
      expect(suite.testcase[1]).toMatchObject({ name: 'always_polite', line: '12' });
      expect(suite.testcase[1].failure).toMatchObject({ message: '1 of 3 trials passed; pass_at is 3', type: 'assertion' });
      expect(suite.testcase[1].failure['#text']).toContain('tests/polite.sqtest.hcl:18:5: the reply must be polite');
    } finally {
      await server.close();
    }
  });
});

describe('squadron test: the judge recorded and replayed, variables', () => {
  it('records the judge call into the cassette and replays its verdict offline at no cost; variables and --var reach the config', async () => {
    const script = turnScript({
      'commander of task "greet"': [(req) => taskComplete(`Hello from ${JSON.stringify(req.canonical.system).includes('team blue') ? 'blue' : 'another team'}`)],
      'judge of an automated test': [toolCall('verdict', { pass: true, reason: 'a greeting' })],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    let dir = '';
    try {
      dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
variable "team" {
  default = "red"
}
mission "hello" {
  description = "Greetings from team \${vars.team}"
  commander { model = ${ANTHROPIC_MODEL} }
  task "greet" {
    objective = "Greet"
    tools     = [builtins.files.read]
  }
}
`,
        'hello.sqtest.hcl': `run "greets" {
  mission = missions.hello
  replay  = "hello.jsonl"
  variables {
    team = "blue"
  }
  assert {
    condition     = judge("Is this a greeting?", run.tasks.greet.summary) && run.tasks.greet.summary == "Hello from blue"
    error_message = "a greeting from team blue"
  }
}
`,
      });
      const recorded = await runCli(['test', dir, '--record', '--json'], { cwd: dir });
      expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      const trial = JSON.parse(recorded.stdout).files[0].tests[0].trials[0];
      expect(trial.judge_cost_usd).toBeGreaterThan(0);
      const cassette = readFileSync(join(dir, 'hello.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(cassette.map((e: { trace: { task: string; agent: string } }) => `${e.trace.task}/${e.trace.agent}`)).toEqual(['greet/commander', 'test.greets/judge']);
    } finally {
      await server.close();
    }
    // Offline: the mission and the judge replay from the cassette; nothing is spent.
    const replayed = await runCli(['test', dir, '--json'], { cwd: dir });
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    const trial = JSON.parse(replayed.stdout).files[0].tests[0].trials[0];
    expect(trial).toMatchObject({ passed: true, cost_usd: 0, judge_cost_usd: 0 });
    expect(trial.judged[0]).toMatchObject({ question: 'Is this a greeting?', pass: true, reason: 'a greeting' });
    // The run's own variables win over --var; without them, --var reaches the config (the recorded
    // system prompt said "blue", so "green" leaves the recording).
    writeFileSync(join(dir, 'hello.sqtest.hcl'), readFileSync(join(dir, 'hello.sqtest.hcl'), 'utf8').replace(/  variables \{\n    team = "blue"\n  \}\n/, ''));
    const green = await runCli(['test', dir, '--var', 'team=green'], { cwd: dir });
    expect(green.code).toBe(1);
    expect(green.stdout).toContain('the system prompt differs from the recording');
    expect(green.stdout).toContain('- recorded: "blue"');
    expect(green.stdout).toContain('+ now:      "green"');
  });
});

describe('squadron test: the judge within the mission budget', () => {
  it('prices each judge call and stops asking once the run and its judging spent the mission dollar budget', async () => {
    // Claude Sonnet 4.6 input costs $3 per million tokens: each call below costs $0.30.
    const dear = { inputTokens: 100_000, outputTokens: 0 };
    const script = turnScript({
      'commander of task "greet"': [{ ...taskComplete('Hello'), usage: dear }],
      'judge of an automated test': [{ ...toolCall('verdict', { pass: true, reason: 'yes' }), usage: dear }],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "hello" {
  commander { model = ${ANTHROPIC_MODEL} }
  budget {
    dollars = 0.55
  }
  task "greet" {
    objective = "Greet"
    tools     = [builtins.files.read]
  }
}
`,
        'hello.sqtest.hcl': `run "judged_twice" {
  mission = missions.hello
  live    = true
  assert {
    condition     = judge("Is this a greeting?", run.tasks.greet.summary)
    error_message = "a greeting"
  }
  assert {
    condition     = judge("Is this short?", run.tasks.greet.summary)
    error_message = "short"
  }
}
`,
      });
      const r = await runCli(['test', dir, '--json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(1);
      const trial = JSON.parse(r.stdout).files[0].tests[0].trials[0];
      expect(trial.cost_usd).toBeCloseTo(0.3, 6);
      expect(trial.judge_cost_usd).toBeCloseTo(0.3, 6);
      expect(trial.judged.map((j: { question: string; pass: boolean }) => [j.question, j.pass])).toEqual([['Is this a greeting?', true], ['Is this short?', false]]);
      expect(trial.judged[1].reason).toBe("the mission's budget ($0.55) is spent: the judge was not asked");
      expect(trial.failures.map((f: { message: string }) => f.message)).toEqual(['short']);
      expect(server.requests.filter((q) => q.canonical.system.includes('judge of an automated test'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('test files are checked before anything runs', () => {
  const dir = (): string =>
    writeProject({
      'mission.hcl': `${OFFLINE_MODEL_BLOCK}
mission "triage" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "classify" {
    objective = "Classify"
    tools     = [builtins.files.read]
  }
}
`,
      'tests/bad.sqtest.hcl': `run "unknown_mission" {
  mission = missions.triag
}

run "unknown_fields" {
  mission = missions.triage
  replay  = "x.jsonl"
  assert {
    condition     = run.cost < 1 && run.tasks.clasify.status == "completed" && run.tasks.classify.rout == "x"
    error_message = "x"
  }
}
`,
    });

  it('validate reports each test-file error at its position with its code', async () => {
    const r = await runCli(['validate', '.'], { cwd: dir() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/bad.sqtest.hcl:2:13: error[TST001]: run "unknown_mission": no mission "triag" in the config.');
    expect(r.stderr).toContain('hint: Did you mean "triage"?');
    expect(r.stderr).toContain('tests/bad.sqtest.hcl:9:24: error[TST002]: run has no field "cost".');
    expect(r.stderr).toContain('tests/bad.sqtest.hcl:9:46: error[TST003]: run.tasks.clasify: the mission has no task "clasify".');
    expect(r.stderr).toContain('tests/bad.sqtest.hcl:9:98: error[TST002]: run.tasks.classify has no field "rout".');
  });

  it('test exits 2 with the same diagnostics and runs nothing', async () => {
    const r = await runCli(['test', dir(), '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error[TST001]');
    const doc = JSON.parse(r.stdout);
    expect(doc.error_code).toBe('invalid_config');
    expect(doc.diagnostics.map((d: { code: string }) => d.code)).toEqual(['TST001', 'TST002', 'TST003', 'TST002']);
  });
});

describe('the examples test themselves offline', () => {
  for (const example of ['quickstart', 'ticket-triage', 'tool-discovery']) {
    it(`squadron test examples/${example} passes from its cassette`, async () => {
      const r = await runCli(['test', `examples/${example}`, '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.passed).toBeGreaterThanOrEqual(1);
      expect(doc).toMatchObject({ failed: 0, errors: 0 });
      expect(doc.files[0].tests[0].trials[0]).toMatchObject({ status: 'completed', cost_usd: 0 });
    });
  }
});
