// End-to-end: direct tasks (`direct = true`). The task's worker runs the objective itself and finishes
// the task with the commander's finishing tools: with declared outputs (submit_output with the task's
// schema, strict on the wire), with routes (the route choice in task_complete), or with a plain answer
// when there is nothing to submit or choose. No commander session exists; the requests are the
// worker's two (a tool call, then the finish); plan shows the very request run sends; graph, validate
// and inspect mark the task as direct; validate refuses what cannot run without a commander. A direct
// task records to and replays from a cassette, parks for an approval and stops at its budget, and
// resume continues its worker's session in both cases.

import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { strictToolSchema } from '../../runtime/providers/strictSchema.js';
import type { ToolDefinition } from '../../runtime/providers/types.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, openRunDb, OPENAI_MODEL, removeProjects, requestsOf, workerOf, writeProject, OFFLINE_MODEL_BLOCK } from '../support/e2eProject.js';
import { withFakeModelServer } from '../support/fakeModelServer.js';
import { firstUserMessage, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 120_000 });
afterAll(removeProjects);

/** collect (a commander) → triage (direct: output + router) → escalate | archive (direct, answers in text). */
function mission(modelBlock: string, model: string): string {
  return `${modelBlock}
mission "m" {
  commander { model = ${model} }
  task "collect" {
    objective = "collect the case"
    tools     = [builtins.utils.current_time]
  }
  task "triage" {
    direct     = true
    depends_on = [tasks.collect]
    objective  = "Triage the case: read the time, then set its priority."
    tools      = [builtins.utils.current_time]
    output = {
      priority = string("low, normal or high", true)
      note     = string("anything worth passing on")
    }
    router {
      route {
        target    = tasks.escalate
        condition = "the case is urgent"
      }
      route {
        target    = tasks.archive
        condition = "the case is closed"
      }
    }
  }
  task "escalate" {
    direct    = true
    objective = "escalate"
    tools     = [builtins.utils.current_time]
  }
  task "archive" {
    direct    = true
    objective = "archive"
    tools     = [builtins.utils.current_time]
  }
}
`;
}

interface ToolDefinitionJson {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  strict?: true;
}

interface AgentPlanJson {
  name: string;
  first_request_tools: string[];
  request_bytes: { system: number; tools: number; messages: number; total: number };
  system_prompt?: string;
  first_message?: string;
  tool_definitions?: ToolDefinitionJson[];
}

interface PlanJson {
  tasks: { name: string; direct?: true; commander?: unknown; work_sources: string[]; agents: AgentPlanJson[] }[];
}

/** The planned definitions as a strict-mode provider receives them (the schema made strict). */
function onTheWire(provider: 'anthropic' | 'openai', definitions: readonly ToolDefinitionJson[] | undefined): ToolDefinitionJson[] | undefined {
  return definitions?.map((d) => (d.strict ? { ...d, input_schema: (strictToolSchema(d.input_schema as ToolDefinition['inputSchema'], provider) ?? d.input_schema) as Record<string, unknown> } : d));
}

function asPlanned(d: ToolDefinition): ToolDefinitionJson {
  return { name: d.name, description: d.description, input_schema: d.inputSchema as Record<string, unknown>, ...(d.strict ? { strict: true as const } : {}) };
}

describe.each([
  ['anthropic', ANTHROPIC_MODEL],
  ['openai', OPENAI_MODEL],
] as const)('a direct task with declared outputs and routes (%s wire format)', (provider, model) => {
  it('runs its worker alone: a tool call, then submit_output and task_complete with a route, in two requests that plan showed byte for byte', async () => {
    // Under OpenAI's strict mode every property is sent, optional ones as null.
    const unset = provider === 'openai' ? { note: null } : {};
    const script = turnScript({
      [commanderOf('collect')]: [toolCall('call_agent', { name: 'worker', task: 'Collect.' }), taskComplete('Case 7 collected: the printer is on fire.')],
      [workerOf('collect')]: [{ text: 'collected' }],
      [workerOf('triage')]: [
        toolCall('builtins_utils_current_time', {}),
        (req) => ({
          toolCalls: [
            { name: 'submit_output', input: { output: { priority: 'high', ...unset } } },
            { name: 'task_complete', input: { summary: `urgent, read at ${lastToolResult(req).length > 0 ? 'the time' : '?'}`, route: 'escalate' } },
          ],
        }),
      ],
      [workerOf('escalate')]: [toolCall('builtins_utils_current_time', {}), { text: 'Escalated to the on-call team.' }],
    });
    await withFakeModelServer(script.respond, async (server) => {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server, provider), model) });
      const planned = await runCli(['plan', dir, '--json', '--show-prompt'], { cwd: dir });
      expect(planned.code, planned.stderr).toBe(0);
      const plan = JSON.parse(planned.stdout) as PlanJson;
      const triagePlan = plan.tasks.find((t) => t.name === 'triage')!;
      expect(triagePlan.direct).toBe(true);
      expect(triagePlan.commander).toBeUndefined();
      expect(triagePlan.work_sources).toEqual(['worker']);
      expect(triagePlan.agents[0]!.first_request_tools).toEqual(['builtins_utils_current_time', 'query_task_output', 'submit_output', 'task_complete']);

      const r = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { status: string; tasks: Record<string, { status: string; summary?: string; output?: unknown }> };
      expect(doc.tasks['triage']).toMatchObject({ status: 'completed', summary: 'urgent, read at the time', output: { priority: 'high' } });
      expect(doc.tasks['escalate']).toMatchObject({ status: 'completed', summary: 'Escalated to the on-call team.' });
      expect(doc.tasks['archive']?.status).toBe('skipped');

      // The direct tasks had no commander: two requests each, their worker's.
      expect(requestsOf(server, commanderOf('triage'))).toHaveLength(0);
      expect(requestsOf(server, commanderOf('escalate'))).toHaveLength(0);
      const triage = requestsOf(server, workerOf('triage'));
      expect(triage).toHaveLength(2);
      // The first request is the one plan showed: system prompt, objective, tool definitions.
      const first = triage[0]!;
      const worker = triagePlan.agents[0]!;
      // (Upstream summaries are known at run time: plan shows where they go.)
      const placeholder = '(the summary of task "collect", known when it completes)';
      expect(worker.system_prompt).toContain(placeholder);
      expect(first.canonical.system).toBe(worker.system_prompt!.replace(placeholder, 'Case 7 collected: the printer is on fire.'));
      expect(firstUserMessage(first)).toBe(worker.first_message);
      expect(firstUserMessage(first)).toBe('Triage the case: read the time, then set its priority.');
      expect(JSON.stringify(first.canonical.tools.map(asPlanned))).toBe(JSON.stringify(onTheWire(provider, worker.tool_definitions)));
      expect(worker.request_bytes.system).toBe(Buffer.byteLength(worker.system_prompt!, 'utf8'));
      expect(worker.request_bytes.messages).toBe(Buffer.byteLength(worker.first_message!, 'utf8'));
      // Its prompt carries the upstream summary and the routing rules; submit_output the output schema.
      expect(first.canonical.system).toContain('Case 7 collected: the printer is on fire.');
      expect(first.canonical.system).toContain('`escalate`: the case is urgent');
      const submit = first.canonical.tools.find((t) => t.name === 'submit_output')!;
      expect(JSON.stringify(submit.inputSchema)).toContain('"priority"');
      const complete = first.canonical.tools.find((t) => t.name === 'task_complete')!;
      expect(JSON.stringify(complete.inputSchema)).toContain('"escalate"');

      // The store: one worker session per direct task, none of a commander; the route recorded.
      const db = openRunDb(dir);
      try {
        const sessions = db.prepare('SELECT task_name AS task, agent, role, status FROM sessions ORDER BY task_name, agent').all();
        expect(sessions).toEqual([
          { task: 'collect', agent: 'commander', role: 'commander', status: 'completed' },
          { task: 'collect', agent: 'worker', role: 'agent', status: 'completed' },
          { task: 'escalate', agent: 'worker', role: 'agent', status: 'completed' },
          { task: 'triage', agent: 'worker', role: 'agent', status: 'completed' },
        ]);
        expect(db.prepare("SELECT route FROM tasks WHERE name = 'triage'").pluck().get()).toBe('escalate');
      } finally {
        db.close();
      }

      // inspect marks the direct tasks; its transcript shows the worker's conversation.
      const runDb = openRunDb(dir);
      const runId = runDb.prepare('SELECT id FROM runs').pluck().get() as string;
      runDb.close();
      const shown = await runCli(['inspect', runId, '--db', dir, '--task', 'triage', '--transcript'], { cwd: dir });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('triage · direct (its worker alone) · completed');
      expect(shown.stdout).toContain('submit_output');
      const json = await runCli(['inspect', runId, '--db', dir, '--json'], { cwd: dir });
      const tasks = (JSON.parse(json.stdout) as { tasks: { name: string; direct?: boolean }[] }).tasks;
      expect(tasks.filter((t) => t.direct).map((t) => t.name)).toEqual(['triage', 'escalate', 'archive']);
    });
  });
});

describe('a direct task that must submit output', () => {
  it('fails with a clear error when its worker answers in text without task_complete', async () => {
    const script = turnScript({
      [commanderOf('collect')]: [taskComplete('collected')],
      [workerOf('triage')]: [{ text: 'It is urgent.' }],
    });
    await withFakeModelServer(script.respond, async (server) => {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), ANTHROPIC_MODEL) });
      const r = await runCli(['run', dir], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(r.code).toBe(1);
      expect(r.stderr + r.stdout).toContain('task "triage" failed: the worker answered without calling task_complete; this task needs submit_output and a route in task_complete');
    });
  });
});

describe('graph and validate show direct tasks', () => {
  it('draws a direct task as a rounded node and lists it as its worker alone', async () => {
    const dir = writeProject({ 'main.hcl': mission(OFFLINE_MODEL_BLOCK, ANTHROPIC_MODEL) });
    const dot = await runCli(['graph', dir], { cwd: dir });
    expect(dot.code, dot.stderr).toBe(0);
    expect(dot.stdout).toContain('  triage [label="triage (direct)", style=rounded];');
    expect(dot.stdout).toContain('  collect;');
    const mermaid = await runCli(['graph', dir, '--format', 'mermaid'], { cwd: dir });
    expect(mermaid.stdout).toContain('  t_triage("triage (direct)")');
    const json = await runCli(['graph', dir, '--json'], { cwd: dir });
    expect((JSON.parse(json.stdout) as { direct: string[] }).direct).toEqual(['triage', 'escalate', 'archive']);
    const valid = await runCli(['validate', dir], { cwd: dir });
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toMatch(/^ {2}triage +direct: worker alone \(1 tool, fake\.claude_sonnet_4_6\) {2}after collect$/m);
    expect(valid.stdout).toMatch(/^ {2}collect +worker \(1 tool/m);
  });

  it('plan shows what the first call of a direct worker reserves and warns when the task budget is smaller', async () => {
    const hcl = mission(OFFLINE_MODEL_BLOCK, ANTHROPIC_MODEL).replace('    direct     = true\n', '    direct     = true\n    budget {\n      tokens = 1000\n    }\n');
    const dir = writeProject({ 'main.hcl': hcl });
    const plan = await runCli(['plan', dir, '--task', 'triage', '--json'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    const doc = JSON.parse(plan.stdout) as { tasks: { agents: { first_call?: { tokens: number } }[] }[]; budget_warnings: string[] };
    expect(doc.tasks[0]!.agents[0]!.first_call!.tokens).toBeGreaterThan(1000);
    expect(doc.budget_warnings).toEqual([expect.stringMatching(/^the budget of task triage \(1,000 tokens < [\d,]+\) is smaller than what the first call of task triage reserves/)]);
    const text = await runCli(['plan', dir, '--task', 'triage'], { cwd: dir });
    expect(text.stdout).toMatch(/^ {13}first call reserves up to [\d,]+ tokens/m);
  });

  it('the mission-wide direct = true makes every task direct unless one says direct = false', async () => {
    const dir = writeProject({
      'main.hcl': `${OFFLINE_MODEL_BLOCK}
agent "helper" {
  model       = ${ANTHROPIC_MODEL}
  personality = "helps"
  tools       = [builtins.utils.current_time]
}
mission "m" {
  direct = true
  commander { model = ${ANTHROPIC_MODEL} }
  task "a" {
    objective = "a"
    tools     = [builtins.utils.current_time]
  }
  task "b" {
    direct     = false
    depends_on = [tasks.a]
    objective  = "b"
    agents     = [agents.helper]
  }
}
`,
    });
    const plan = await runCli(['plan', dir, '--json'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    const tasks = (JSON.parse(plan.stdout) as PlanJson).tasks;
    expect(tasks.map((t) => [t.name, t.direct === true, t.commander !== undefined])).toEqual([
      ['a', true, false],
      ['b', false, true],
    ]);
    const text = await runCli(['plan', dir], { cwd: dir });
    expect(text.stdout).toContain('  direct     no commander: the worker runs the objective and finishes the task itself');
  });
});

describe('validate refuses what cannot run without a commander', () => {
  it('reports agents on a direct task (its own or the mission\'s), a direct task without tools, and a sequential iterator, each at its position with a hint', async () => {
    const dir = writeProject({
      'main.hcl': `${OFFLINE_MODEL_BLOCK}
agent "helper" {
  model       = ${ANTHROPIC_MODEL}
  personality = "helps"
  tools       = [builtins.utils.current_time]
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  dataset "rows" {
    items = [1, 2]
  }
  task "own_agents" {
    direct    = true
    objective = "a"
    tools     = [builtins.utils.current_time]
    agents    = [agents.helper]
  }
  task "no_tools" {
    direct    = true
    objective = "b"
  }
  task "walks" {
    direct    = true
    objective = "c"
    tools     = [builtins.utils.current_time]
    iterator {
      dataset = datasets.rows
    }
  }
}
mission "shared" {
  agents = [agents.helper]
  direct = true
  commander { model = ${ANTHROPIC_MODEL} }
  task "inherits" {
    objective = "d"
    tools     = [builtins.utils.current_time]
  }
  task "opts_out" {
    objective = "e"
    tools     = [builtins.utils.current_time]
    agents    = []
  }
}
`,
    });
    const r = await runCli(['validate', dir], { cwd: dir });
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).not.toContain('Error:');
    expect(out).toContain(
      'main.hcl:20:5: error[GRA013]: task "own_agents" is direct, so it has no commander to call its agents (helper) with call_agent or ask_agent',
    );
    expect(out).toContain("hint: remove direct = true to keep the commander, or remove agents and let the task's worker do the work with its tools");
    expect(out).toContain('main.hcl:23:5: error[GRA014]: task "no_tools" is direct, but declares no tools, so it has no worker to run it');
    expect(out).toContain('main.hcl:27:5: error[ITR009]: task "walks" is direct, but iterates sequentially');
    expect(out).toContain('hint: set parallel = true in the iterator (with concurrency_limit = 1 for one item at a time)');
    expect(out).toContain(
      "main.hcl:39:3: error[GRA013]: task \"inherits\" is direct (the mission's direct = true), so it has no commander to call the mission's agents (helper) with call_agent or ask_agent",
    );
    expect(out).toContain('hint: set direct = false on task "inherits" to keep its commander, or set agents = [] on the task to run it with its worker alone');
    // The task with agents = [] runs direct under the mission's default: nothing to report.
    expect(out).not.toContain('"opts_out"');
    expect(out.match(/error\[/g)).toHaveLength(4);
    // No GRA002 ("no work source") on top of GRA014.
    expect(out).not.toContain('GRA002');
  });
});

describe('a direct task on a cassette', () => {
  it('records its worker session with --record and plays it back with --replay, calling no model', async () => {
    const script = turnScript({
      [workerOf('stamp')]: [toolCall('builtins_utils_current_time', {}), (req) => taskComplete(`stamped (${lastToolResult(req).length > 0 ? 'time read' : 'no time'})`)],
    });
    await withFakeModelServer(script.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "stamp" {
    direct    = true
    objective = "Stamp the time."
    tools     = [builtins.utils.current_time]
  }
}
`,
      });
      const cassette = `${dir}/stamp.jsonl`;
      const recorded = await runCli(['run', dir, '--json', '--record', cassette], { cwd: dir });
      expect(recorded.code, recorded.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      expect(server.requests).toHaveLength(2);
      const replayed = await runCli(['run', dir, '--json', '--replay', cassette], { cwd: dir });
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(server.requests).toHaveLength(2);
      const doc = JSON.parse(replayed.stdout) as { tasks: Record<string, { summary: string }>; usage: { cost_usd: number; model_turns: number } };
      expect(doc.tasks['stamp']!.summary).toBe('stamped (time read)');
      expect(doc.usage).toMatchObject({ cost_usd: 0, model_turns: 2 });
    });
  });
});

describe('a direct task whose tool needs approval', () => {
  it('parks the worker, ends waiting, and after approve and resume continues its session and runs the call once', async () => {
    const script = turnScript({
      [workerOf('publish')]: [toolCall('builtins_files_write', { path: 'note.txt', content: 'hello' }), (req) => taskComplete(`wrote: ${lastToolResult(req)}`)],
    });
    await withFakeModelServer(script.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "publish" {
    direct    = true
    objective = "Write the note."
    tools     = [builtins.files.write]
    approval  = [builtins.files.write]
  }
}
`,
      });
      const first = await runCli(['run', dir], { cwd: dir });
      expect(first.code, first.stderr).toBe(4);
      const db = openRunDb(dir);
      const runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
      const requestId = db.prepare('SELECT id FROM operator_requests').pluck().get() as string;
      db.close();
      const approved = await runCli(['approve', runId, '--call', requestId, '--db', dir], { cwd: dir });
      expect(approved.code, approved.stderr).toBe(0);
      const resumed = await runCli(['resume', runId, '--db', dir, '--json'], { cwd: dir });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      expect((JSON.parse(resumed.stdout) as { tasks: Record<string, { summary: string }> }).tasks['publish']!.summary).toBe('wrote: Wrote 5 bytes to note.txt');
      // One model call per turn in all: the resumed session continued, it did not start over.
      expect(requestsOf(server, workerOf('publish'))).toHaveLength(2);
      const after = openRunDb(dir);
      try {
        expect(after.prepare("SELECT status FROM tool_calls WHERE tool_ref = 'builtins.files.write'").pluck().all()).toEqual(['completed']);
        expect(after.prepare('SELECT agent FROM sessions').pluck().all()).toEqual(['worker']);
      } finally {
        after.close();
      }
    });
  });
});

describe('a direct task under a budget', () => {
  it('stops before the call its budget cannot afford, and resume --budget continues the same worker session', async () => {
    // $1,000 per million output tokens: a call reserves about $1 (max_output_tokens 1000) and settles at $0.50.
    const usage = { inputTokens: 100, outputTokens: 500 };
    const zones = ['UTC', 'Europe/Paris', 'Asia/Tokyo'];
    const script = turnScript({
      [workerOf('clock')]: [...zones.map((timezone) => ({ ...toolCall('builtins_utils_current_time', { timezone }), usage })), { ...taskComplete('three times read'), usage }],
    });
    await withFakeModelServer(script.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `model "fake" {
  provider          = "anthropic"
  base_url          = "${server.anthropicBaseURL}"
  api_key           = "test-key-123"
  max_output_tokens = 1000
  pricing "claude_sonnet_4_6" {
    input       = 0.001
    output      = 1000
    cache_read  = 0.001
    cache_write = 0.001
  }
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "clock" {
    direct    = true
    objective = "Tell the time in three zones."
    tools     = [builtins.utils.current_time]
    budget {
      dollars = 2
    }
  }
}
`,
      });
      const first = await runCli(['run', dir], { cwd: dir });
      expect(first.code, first.stderr).toBe(3);
      // Two calls fit ($0.50 settled each, about $1 reserved); the third could pass $2.
      expect(server.requests).toHaveLength(2);
      expect(first.stdout).toContain('budget of task clock');
      const db = openRunDb(dir);
      const runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
      db.close();
      const resumed = await runCli(['resume', runId, '--db', dir, '--budget', 'clock.dollars=4', '--json'], { cwd: dir });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      expect(server.requests).toHaveLength(4);
      expect((JSON.parse(resumed.stdout) as { tasks: Record<string, { summary: string }> }).tasks['clock']!.summary).toBe('three times read');
      const after = openRunDb(dir);
      try {
        expect(after.prepare('SELECT agent FROM sessions').pluck().all()).toEqual(['worker']);
        expect(after.prepare("SELECT count(*) FROM messages WHERE role = 'assistant'").pluck().get()).toBe(4);
      } finally {
        after.close();
      }
    });
  });
});
