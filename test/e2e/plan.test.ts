// End-to-end: `squadron plan`. Its `--json` output is a documented contract; `--show-prompt` prints
// the rendered prompts; and the prompts and tool definitions it shows are byte-identical to what
// `run` sends in each commander's and agent's first request (as recorded by the fake model server,
// in every wire format).

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { strictToolSchema } from '../../runtime/providers/strictSchema.js';
import type { ToolDefinition } from '../../runtime/providers/types.js';
import {
  agentOf,
  ANTHROPIC_MODEL,
  commanderOf,
  fakeModelBlock,
  GEMINI_MODEL,
  OPENAI_MODEL,
  requestsOf,
  workerOf,
  writeProject,
  removeProjects,
  OFFLINE_MODEL_BLOCK,
} from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { firstUserMessage, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

// Each test spawns the CLI several times; the machine may be shared and slow.
afterAll(removeProjects);

const SKILL_MD = '---\nname: web-scraping\ndescription: Scrape web pages and clean their HTML.\n---\nStrip the markup.\n';

function configText(model: string, modelBlock: string): string {
  return `${modelBlock}
skills_dir = "./skills"

skill "summarize" {
  description  = "Summarize findings as three bullets"
  instructions = "Write exactly three bullets."
  tools        = [builtins.utils.current_time]
}

toolset "browsing" {
  description = "Fetch web pages"
  tools       = [builtins.http.get, builtins.http.post]
}

agent "analyst" {
  model       = ${model}
  personality = "A careful analyst who reads files."
  tools       = [builtins.files.read]
  skills      = [skills.summarize]
}

mission "ident" {
  description = "Plan must equal run"
  commander { model = ${model} }

  agent_defaults {
    tools  = [builtins.files.list]
    skills = [skills.web-scraping]
  }

  input "topic" {
    type    = "string"
    default = "tide pools"
  }

  task "gather" {
    objective = "Gather three facts about \${inputs.topic}; use $summarize."
    tools     = [builtins.files.write, toolsets.browsing]
    skills    = [skills.summarize]
    agents    = [agents.analyst]
    output = {
      fact_count = integer("How many facts were gathered", true)
    }
  }

  task "browse" {
    objective   = "Browse the web widely."
    tools       = [builtins.http.all, builtins.files.all]
    discovery   = true
    always_load = [builtins.files.read]
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

/** A tool definition as the server received it (runtime shape), in plan's JSON shape (snake_case keys, same order). */
function asPlanned(d: ToolDefinition): ToolDefinitionJson {
  return { name: d.name, description: d.description, input_schema: d.inputSchema as Record<string, unknown>, ...(d.strict ? { strict: true as const } : {}) };
}

interface AgentPlanJson {
  name: string;
  model: string;
  tools: { ref: string; via: string }[];
  skills: { name: string; via: string }[];
  request_bytes: { system: number; tools: number; messages: number; total: number; estimated_tokens: number };
  system_prompt?: string;
  tool_definitions?: ToolDefinitionJson[];
}

interface PlanJson {
  mission: string;
  tasks: {
    name: string;
    commander: { model: string; tools: string[]; request_bytes: AgentPlanJson['request_bytes']; system_prompt?: string; first_message?: string; tool_definitions?: ToolDefinitionJson[] };
    agents: AgentPlanJson[];
  }[];
}

describe('squadron plan --json', () => {
  it('prints the documented contract, without calling any model', async () => {
    const server = await startFakeModelServer({ respond: () => ({ text: 'never' }) });
    try {
      const dir = writeProject({ 'skills/web-scraping/SKILL.md': SKILL_MD, 'mission.hcl': configText(ANTHROPIC_MODEL, fakeModelBlock(server)) });
      const result = await runCli(['plan', dir, '--json'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests).toHaveLength(0);
      const plan = JSON.parse(result.stdout) as PlanJson;
      expect(plan.mission).toBe('ident');
      expect(plan.tasks.map((t) => t.name)).toEqual(['gather', 'browse']);
      const gather = plan.tasks[0]!;
      expect(Object.keys(gather)).toEqual(expect.arrayContaining(['name', 'commander', 'agents']));
      expect(gather.commander).toMatchObject({ model: 'fake.claude_sonnet_4_6', tools: ['call_agent', 'ask_agent', 'submit_output', 'task_complete'] });
      expect(gather.commander).not.toHaveProperty('system_prompt');
      expect(gather.agents.map((a) => a.name)).toEqual(['worker', 'analyst']);
      const worker = gather.agents[0]!;
      expect(worker.model).toBe('fake.claude_sonnet_4_6');
      expect(worker.tools).toEqual([
        { ref: 'builtins.files.write', via: 'task' },
        { ref: 'builtins.http.get', via: 'toolset:browsing' },
        { ref: 'builtins.http.post', via: 'toolset:browsing' },
        { ref: 'builtins.files.list', via: 'agent_defaults' },
      ]);
      expect(worker.skills).toEqual([
        { name: 'summarize', via: 'task' },
        { name: 'web-scraping', via: 'agent_defaults' },
      ]);
      // `$summarize` in the objective preloads it: its tool is in the first request.
      expect(worker).toMatchObject({ discovery: false, preloaded_skills: ['summarize'], warnings: [] });
      expect((worker as unknown as { first_request_tools: string[] }).first_request_tools).toEqual([
        'builtins_files_write',
        'builtins_http_get',
        'builtins_http_post',
        'builtins_files_list',
        'builtins_utils_current_time',
        'load_skill',
      ]);
      expect(worker).not.toHaveProperty('system_prompt');
      expect(worker).not.toHaveProperty('tool_definitions');
      for (const b of [gather.commander.request_bytes, ...gather.agents.map((a) => a.request_bytes)]) {
        expect(Object.keys(b).sort()).toEqual(['estimated_tokens', 'messages', 'system', 'total', 'tools'].sort());
        expect(b.total).toBe(b.system + b.tools + b.messages);
        expect(b.estimated_tokens).toBe(Math.ceil(b.total / 4));
      }

      const one = await runCli(['plan', dir, '--json', '--task', 'browse', '--mission', 'ident'], { cwd: dir });
      expect(one.code, one.stderr).toBe(0);
      expect((JSON.parse(one.stdout) as PlanJson).tasks.map((t) => t.name)).toEqual(['browse']);
      const missing = await runCli(['plan', dir, '--task', 'nope'], { cwd: dir });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('mission "ident" has no task "nope" (tasks: gather, browse)');
    } finally {
      await server.close();
    }
  });

  it('measures the request it shows: bytes of the system prompt and of the tool definitions JSON', async () => {
    const dir = writeProject({ 'skills/web-scraping/SKILL.md': SKILL_MD, 'mission.hcl': configText(ANTHROPIC_MODEL, OFFLINE_MODEL_BLOCK) });
    const result = await runCli(['plan', dir, '--json', '--show-prompt'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as PlanJson;
    for (const task of plan.tasks) {
      const c = task.commander;
      expect(c.request_bytes.system).toBe(Buffer.byteLength(c.system_prompt!, 'utf8'));
      expect(c.request_bytes.tools).toBe(Buffer.byteLength(JSON.stringify(c.tool_definitions), 'utf8'));
      expect(c.request_bytes.messages).toBe(Buffer.byteLength(c.first_message!, 'utf8'));
      for (const a of task.agents) {
        expect(a.request_bytes.system).toBe(Buffer.byteLength(a.system_prompt!, 'utf8'));
        expect(a.request_bytes.tools).toBe(Buffer.byteLength(JSON.stringify(a.tool_definitions), 'utf8'));
      }
    }
    // Discovery shrinks the first request to the discovery tools, always_load and load_skill.
    const browse = plan.tasks[1]!.agents[0]!;
    expect(browse.tool_definitions!.map((d) => d.name)).toEqual(['search_tools', 'get_tool_schema', 'builtins_files_read', 'load_skill']);
  });
});

describe('squadron plan --show-prompt', () => {
  it('prints the rendered commander, worker and agent prompts', async () => {
    const dir = writeProject({ 'skills/web-scraping/SKILL.md': SKILL_MD, 'mission.hcl': configText(ANTHROPIC_MODEL, OFFLINE_MODEL_BLOCK) });
    const result = await runCli(['plan', dir, '--show-prompt', '--task', 'gather'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toContain('┌─ system prompt\n    │ You are the commander of task "gather" in mission "ident". The mission: Plan must equal run');
    expect(out).toContain('┌─ first message\n    │ Gather three facts about tide pools; use $summarize.');
    expect(out).toContain('┌─ worker system prompt\n    │ You are the worker agent of task "gather"');
    expect(out).toContain('    │ Skill `summarize` is loaded.');
    expect(out).toContain('preloaded (mentioned in the objective): summarize');
    expect(out).toContain('┌─ analyst system prompt\n    │ You are "analyst", an agent working on task "gather"');
    expect(out).toContain('worker[gather]: 4 tools (task 1, toolset:browsing 2, agent_defaults 1) · skills: summarize (task), web-scraping (agent_defaults)');
    const plain = await runCli(['plan', dir, '--task', 'gather'], { cwd: dir });
    expect(plain.stdout).not.toContain('┌─');
  });

  it('needs no secret: a variable without a value shows as <vars.name>, and tools lists without it too', async () => {
    const secretModel = 'variable "key" {\n  secret = true\n}\nvariable "depth" {}\nmodel "fake" {\n  provider = "anthropic"\n  api_key  = vars.key\n}\n';
    const config = configText(ANTHROPIC_MODEL, secretModel).replace('Gather three facts about', 'Gather \${vars.depth} facts (\${vars.key}) about')
      .replace('A careful analyst who reads files.', 'A careful analyst (\${vars.key}).');
    const dir = writeProject({ 'skills/web-scraping/SKILL.md': SKILL_MD, 'mission.hcl': config });
    const result = await runCli(['plan', dir, '--show-prompt', '--task', 'gather'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('┌─ first message\n    │ Gather <vars.depth> facts (<vars.key>) about tide pools; use $summarize.');
    // A load-time text that needs a missing variable reads as the placeholder as a whole.
    expect(result.stdout).toContain('│ - **analyst**: <vars.key>');
    expect(result.stderr.match(/warning\[REF007\]: variable "\w+"/g)).toEqual(['warning[REF007]: variable "key"', 'warning[REF007]: variable "depth"']);
    // A value given is shown, except a secret's: plan's output ends up in logs.
    const given = await runCli(['plan', dir, '--show-prompt', '--task', 'gather', '--var', 'depth=five', '--var', 'key=sk-very-secret'], { cwd: dir });
    expect(given.stdout).toContain('│ Gather five facts (<vars.key>) about tide pools');
    expect(given.stdout).toContain('│ A careful analyst ([REDACTED:vars.key]).');
    expect(given.stdout + given.stderr).not.toContain('sk-very-secret');
    const tools = await runCli(['tools', dir, '--task', 'gather', '--json'], { cwd: dir });
    expect(tools.code, tools.stderr).toBe(0);
    expect((JSON.parse(tools.stdout) as { tools: unknown[] }).tools).toHaveLength(4);
    // run calls the model, so it needs the key: refused before anything starts.
    const run = await runCli(['run', dir], { cwd: dir });
    expect([run.code, run.stderr.match(/error\[REF007\]/g)?.length]).toEqual([2, 4]);
  });
});

/** Tool definitions as the wire carries them: a strict tool's schema in the provider's strict form. */
/** The planned definitions as a strict-mode provider receives them (the schema made strict). */
function onTheWire(provider: 'anthropic' | 'openai' | 'gemini', definitions: readonly ToolDefinitionJson[] | undefined): ToolDefinitionJson[] | undefined {
  // Gemini has no strict mode: its declarations carry the schema as planned, without the flag.
  if (provider === 'gemini') return definitions?.map(({ strict: _strict, ...d }) => d);
  return definitions?.map((d) => (d.strict ? { ...d, input_schema: (strictToolSchema(d.input_schema as ToolDefinition['inputSchema'], provider) ?? d.input_schema) as Record<string, unknown> } : d));
}

describe.each([
  ['anthropic', ANTHROPIC_MODEL],
  ['openai', OPENAI_MODEL],
  ['gemini', GEMINI_MODEL],
] as const)('plan equals run (%s wire format)', (provider, model) => {
  it("shows byte for byte the system prompts, first message and tool definitions of every first request", async () => {
    const turns = turnScript({
      [commanderOf('gather')]: [
        {
          toolCalls: [
            { name: 'call_agent', input: { name: 'worker', task: 'Gather the facts.' } },
            { name: 'call_agent', input: { name: 'analyst', task: 'Check the facts.' } },
          ],
        },
        toolCall('submit_output', { output: { fact_count: 3 } }),
        taskComplete('Three facts.'),
      ],
      [workerOf('gather')]: [{ text: 'Facts gathered.' }],
      [agentOf('analyst')]: [{ text: 'Facts checked.' }],
      [commanderOf('browse')]: [{ toolCalls: [{ name: 'call_agent', input: { name: 'worker', task: 'Browse.' } }] }, taskComplete('Browsed.')],
      [workerOf('browse')]: [{ text: 'Browsed.' }],
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({ 'skills/web-scraping/SKILL.md': SKILL_MD, 'mission.hcl': configText(model, fakeModelBlock(server, provider)) });
      const planned = await runCli(['plan', dir, '--json', '--show-prompt'], { cwd: dir });
      expect(planned.code, planned.stderr).toBe(0);
      expect(server.requests).toHaveLength(0);
      const plan = JSON.parse(planned.stdout) as PlanJson;

      const run = await runCli(['run', dir], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);

      let compared = 0;
      for (const task of plan.tasks) {
        const first = requestsOf(server, commanderOf(task.name))[0]!;
        expect(first.canonical.system).toBe(task.commander.system_prompt);
        expect(firstUserMessage(first)).toBe(task.commander.first_message);
        expect(JSON.stringify(first.canonical.tools.map(asPlanned))).toBe(JSON.stringify(onTheWire(provider, task.commander.tool_definitions)));
        expect(Buffer.byteLength(first.canonical.system, 'utf8')).toBe(task.commander.request_bytes.system);
        compared++;
        for (const agent of task.agents) {
          const match = agent.name === 'worker' ? workerOf(task.name) : agentOf(agent.name);
          const request = requestsOf(server, match)[0]!;
          expect(request.canonical.system).toBe(agent.system_prompt);
          expect(JSON.stringify(request.canonical.tools.map(asPlanned))).toBe(JSON.stringify(agent.tool_definitions));
          expect(Buffer.byteLength(request.canonical.system, 'utf8')).toBe(agent.request_bytes.system);
          compared++;
        }
      }
      expect(compared).toBe(5);
    } finally {
      await server.close();
    }
  });
});

describe('squadron plan: routed tasks', () => {
  it("shows where a routed task's commander will see its possible activators' summaries", async () => {
    const server = await startFakeModelServer({ respond: () => ({ status: 500 }) });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "triage" {
    objective = "triage"
    tools     = [builtins.utils.current_time]
    router {
      route {
        target    = tasks.escalate
        condition = "urgent"
      }
    }
  }
  task "escalate" {
    objective = "escalate"
    tools     = [builtins.utils.current_time]
  }
}
`,
      });
      const result = await runCli(['plan', dir, '--json', '--show-prompt', '--task', 'escalate'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      const plan = JSON.parse(result.stdout) as { tasks: { commander: { system_prompt: string } }[] };
      expect(plan.tasks[0]!.commander.system_prompt).toContain('### triage\n(the summary of task "triage", known when it completes)');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
