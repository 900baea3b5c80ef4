// End-to-end: declared tool and skill selection with provenance. For every provenance path (task,
// toolset:<n>, agent:<n>, agent_defaults, cli) and every caller override (--tool, --no-tools,
// --skill, --no-skills), the same selection must show in `plan --json`, in the progress line, in
// the stored session.started event, and — what matters — in the requests the model received.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import {
  agentOf,
  ANTHROPIC_MODEL,
  fakeModelBlock,
  requestsOf,
  storedEvents,
  toolNames,
  workerOf,
  writeProject,
  removeProjects,
} from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { taskComplete, turnScript, type TurnScript } from '../support/turnScript.js';

// Each test spawns the CLI several times; the machine may be shared and slow.
afterAll(removeProjects);

interface Given {
  tools: { ref: string; via: string }[];
  skills: { name: string; via: string }[];
}

const SKILL_MD = `---
name: web-scraping
description: Scrape web pages and clean their HTML.
---
Fetch with builtins_http_get, then strip the markup.
`;

function project(server: FakeModelServer, objective = 'Gather the facts.'): string {
  return writeProject({
    'skills/web-scraping/SKILL.md': SKILL_MD,
    'mission.hcl': `${fakeModelBlock(server)}
skills_dir = "./skills"

skill "summarize" {
  description  = "Summarize findings as three bullets"
  instructions = "Write exactly three bullets, most important first."
  tools        = [builtins.utils.current_time]
}

skill "extra" {
  description  = "An extra methodology nobody declared"
  instructions = "Double-check every number."
}

toolset "browsing" {
  description = "Fetch web pages"
  tools       = [builtins.http.get, builtins.http.post, builtins.utils.sleep]
}

agent "analyst" {
  model       = ${ANTHROPIC_MODEL}
  personality = "A careful analyst who reads files."
  tools       = [builtins.files.read]
  skills      = [skills.summarize]
}

mission "sel" {
  commander { model = ${ANTHROPIC_MODEL} }

  agent_defaults {
    tools  = [builtins.files.list]
    skills = [skills.web-scraping]
  }

  task "gather" {
    objective = "${objective}"
    tools     = [builtins.files.write, builtins.files.read, toolsets.browsing]
    skills    = [skills.summarize]
    agents    = [agents.analyst]
  }
}
`,
  });
}

/** The commander calls the worker and the analyst in one turn, then completes. */
function script(): TurnScript {
  return turnScript({
    'commander of task "gather"': [
      {
        toolCalls: [
          { name: 'call_agent', input: { name: 'worker', task: 'Gather the facts.' } },
          { name: 'call_agent', input: { name: 'analyst', task: 'Check the facts.' } },
        ],
      },
      taskComplete('Gathered and checked.'),
    ],
    'worker agent of task "gather"': [{ text: 'Facts gathered.' }],
    [agentOf('analyst')]: [{ text: 'Facts checked.' }],
  });
}

interface Scenario {
  plan: { tasks: { agents: (Given & { name: string; first_request_tools: string[]; warnings: string[] })[] }[] };
  run: CliResult;
  started: (Given & { agent: string })[];
  server: FakeModelServer;
  dir: string;
}

async function scenario(flags: string[], objective?: string): Promise<Scenario> {
  const turns = script();
  const server = await startFakeModelServer({ respond: turns.respond });
  const dir = project(server, objective);
  const planned = await runCli(['plan', dir, '--json', ...flags], { cwd: dir });
  expect(planned.code, planned.stderr).toBe(0);
  const run = await runCli(['run', dir, ...flags], { cwd: dir });
  expect(turns.problems).toEqual([]);
  expect(run.code, run.stderr).toBe(0);
  return { plan: JSON.parse(planned.stdout), run, started: storedEvents<Given & { agent: string }>(dir, 'session.started'), server, dir };
}

const BASE_TOOLS = [
  { ref: 'builtins.files.write', via: 'task' },
  { ref: 'builtins.files.read', via: 'task' },
  { ref: 'builtins.http.get', via: 'toolset:browsing' },
  { ref: 'builtins.http.post', via: 'toolset:browsing' },
  { ref: 'builtins.utils.sleep', via: 'toolset:browsing' },
  { ref: 'builtins.files.list', via: 'agent_defaults' },
];
const BASE_SKILLS = [
  { name: 'summarize', via: 'task' },
  { name: 'web-scraping', via: 'agent_defaults' },
];

function apiNames(tools: { ref: string }[]): string[] {
  return tools.map((t) => t.ref.replace(/\./g, '_'));
}

describe('declared selection with provenance', () => {
  let base: Scenario;
  beforeAll(async () => {
    base = await scenario([]);
  });
  afterAll(async () => {
    await base?.server.close();
  });

  it('shows task, toolset, agent_defaults provenance in plan --json, the progress line and session.started', () => {
    const worker = base.plan.tasks[0]!.agents.find((a) => a.name === 'worker')!;
    expect(worker.tools).toEqual(BASE_TOOLS);
    expect(worker.skills).toEqual(BASE_SKILLS);

    expect(base.run.stderr).toContain(
      'worker[gather]: 6 tools (task 2, toolset:browsing 3, agent_defaults 1) · skills: summarize (task), web-scraping (agent_defaults)',
    );
    const event = base.started.find((e) => e.agent === 'worker')!;
    expect(event.tools).toEqual(BASE_TOOLS);
    expect(event.skills).toEqual(BASE_SKILLS);
  });

  it('sends the worker exactly its declared tools, in declared order, plus load_skill for its skills', () => {
    const first = requestsOf(base.server, workerOf('gather'))[0];
    expect(toolNames(first)).toEqual([...apiNames(BASE_TOOLS), 'load_skill']);
    // The catalog lists the declared skills only; a skill nobody declared is never offered.
    expect(first!.canonical.system).toContain('- `summarize`: Summarize findings as three bullets');
    expect(first!.canonical.system).toContain('- `web-scraping`: Scrape web pages and clean their HTML.');
    expect(first!.canonical.system).not.toContain('`extra`');
  });

  it("gives a declared agent its own tools and skills with agent:<name> provenance", () => {
    const analyst = base.plan.tasks[0]!.agents.find((a) => a.name === 'analyst')!;
    expect(analyst.tools).toEqual([{ ref: 'builtins.files.read', via: 'agent:analyst' }]);
    expect(analyst.skills).toEqual([{ name: 'summarize', via: 'agent:analyst' }]);
    expect(base.run.stderr).toContain('analyst[gather]: 1 tool (agent:analyst 1) · skills: summarize (agent:analyst)');
    const event = base.started.find((e) => e.agent === 'analyst')!;
    expect([event.tools, event.skills]).toEqual([analyst.tools, analyst.skills]);
    const first = requestsOf(base.server, agentOf('analyst'))[0];
    expect(toolNames(first)).toEqual(['builtins_files_read', 'load_skill']);
  });
});

describe('caller overrides on plan and run', () => {
  it('--tool restricts the worker to those of its tools, keeping their provenance, and leaves agents alone', async () => {
    const s = await scenario(['--tool', 'builtins.http.get', '--tool', 'builtins.files.list']);
    try {
      const expected = [
        { ref: 'builtins.http.get', via: 'toolset:browsing' },
        { ref: 'builtins.files.list', via: 'agent_defaults' },
      ];
      const planned = s.plan.tasks[0]!.agents;
      expect(planned.find((a) => a.name === 'worker')!.tools).toEqual(expected);
      expect(planned.find((a) => a.name === 'analyst')!.tools).toEqual([{ ref: 'builtins.files.read', via: 'agent:analyst' }]);
      expect(s.run.stderr).toContain('worker[gather]: 2 tools (toolset:browsing 1, agent_defaults 1) · skills:');
      expect(s.started.find((e) => e.agent === 'worker')!.tools).toEqual(expected);
      expect(toolNames(requestsOf(s.server, workerOf('gather'))[0])).toEqual([...apiNames(expected), 'load_skill']);
    } finally {
      await s.server.close();
    }
  });

  it('--no-tools gives the worker no tools at all', async () => {
    const s = await scenario(['--no-tools']);
    try {
      expect(s.plan.tasks[0]!.agents.find((a) => a.name === 'worker')!.tools).toEqual([]);
      expect(s.run.stderr).toContain('worker[gather]: no tools · skills: summarize (task), web-scraping (agent_defaults)');
      expect(s.started.find((e) => e.agent === 'worker')!.tools).toEqual([]);
      // Only the skill machinery is left; no world tool is offered.
      expect(toolNames(requestsOf(s.server, workerOf('gather'))[0])).toEqual(['load_skill']);
    } finally {
      await s.server.close();
    }
  });

  it('--skill adds a skill to the worker with cli provenance', async () => {
    const s = await scenario(['--skill', 'extra']);
    try {
      const expected = [...BASE_SKILLS, { name: 'extra', via: 'cli' }];
      expect(s.plan.tasks[0]!.agents.find((a) => a.name === 'worker')!.skills).toEqual(expected);
      expect(s.run.stderr).toContain('· skills: summarize (task), web-scraping (agent_defaults), extra (cli)');
      expect(s.started.find((e) => e.agent === 'worker')!.skills).toEqual(expected);
      const first = requestsOf(s.server, workerOf('gather'))[0]!;
      expect(first.canonical.system).toContain('- `extra`: An extra methodology nobody declared');
      // Declared agents are not workers: --skill leaves them as declared.
      expect(s.started.find((e) => e.agent === 'analyst')!.skills).toEqual([{ name: 'summarize', via: 'agent:analyst' }]);
    } finally {
      await s.server.close();
    }
  });

  it('--no-skills suppresses declared skills and $mentions in the objective', async () => {
    const s = await scenario(['--no-skills'], 'Gather the facts, then apply $summarize.');
    try {
      const worker = s.plan.tasks[0]!.agents.find((a) => a.name === 'worker')!;
      expect(worker.skills).toEqual([]);
      expect(worker.first_request_tools).toEqual(apiNames(BASE_TOOLS));
      expect(s.run.stderr).toContain('worker[gather]: 6 tools (task 2, toolset:browsing 3, agent_defaults 1) · skills: none');
      expect(s.run.stderr).not.toContain('loaded skill');
      expect(s.started.find((e) => e.agent === 'worker')!.skills).toEqual([]);
      const first = requestsOf(s.server, workerOf('gather'))[0]!;
      expect(toolNames(first)).toEqual(apiNames(BASE_TOOLS));
      expect(first.canonical.system).not.toContain('## Skills');
      expect(first.canonical.system).not.toContain('Write exactly three bullets');
      expect(storedEvents(s.dir, 'skill.loaded')).toEqual([]);
    } finally {
      await s.server.close();
    }
  });

  it('refuses --tool naming a tool no worker holds, and --skill naming no skill', async () => {
    const server = await startFakeModelServer({ respond: () => ({ text: 'unused' }) });
    try {
      const dir = project(server);
      const tool = await runCli(['run', dir, '--tool', 'builtins.utils.current_time'], { cwd: dir });
      expect(tool.code).toBe(2);
      expect(tool.stderr).toContain('--tool builtins.utils.current_time: no worker of mission "sel" is authorized to use it');
      const skill = await runCli(['plan', dir, '--skill', 'nope'], { cwd: dir });
      expect(skill.code).toBe(2);
      expect(skill.stderr).toContain('--skill nope: no such skill');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('honest defaults', () => {
  it('injects no skill into a worker that declares none, even when the project has skills', async () => {
    const turns = turnScript({
      'commander of task "plain"': [{ toolCalls: [{ name: 'call_agent', input: { name: 'worker', task: 'Say hi.' } }] }, taskComplete('ok')],
      'worker agent of task "plain"': [{ text: 'hi' }],
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
skill "research" {
  description  = "Research with primary sources"
  instructions = "Prefer primary sources."
}
mission "plain" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "plain" {
    objective = "Research the topic and say hi."
    tools     = [builtins.utils.current_time]
  }
}
`,
      });
      const run = await runCli(['run', dir], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('worker[plain]: 1 tool (task 1) · skills: none');
      const first = requestsOf(server, workerOf('plain'))[0]!;
      expect(toolNames(first)).toEqual(['builtins_utils_current_time']);
      expect(first.canonical.system).not.toContain('research');
      expect(first.canonical.system).not.toContain('load_skill');
    } finally {
      await server.close();
    }
  });
});
