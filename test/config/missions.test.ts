// Missions: the seed-001 rules (task-level tools, toolsets, the dynamic worker, agent_defaults),
// the resolved WorkerSpec, inputs, objectives, outputs and mission-scoped agents.

import { afterAll, describe, expect, test } from 'vitest';
import type { MissionGraph } from '../../config/graph.js';
import { at, codes, loadHcl, MODEL, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const AGENT = `agent "expert" {\n  model       = models.claude.claude_sonnet_5_5\n  personality = "Pricing expert"\n  tools       = [builtins.http.get]\n}\n`;

describe('seed 001 validation rules', () => {
  test('task tool refs are validated like agent tool refs', () => {
    const src = withMission('  task "a" {\n    objective = "x"\n    tools     = [builtins.http.fetch, tools.nope]\n  }\n');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'builtins.http.fetch')}`, `REF003@${at(src, 'tools.nope')}`]);
  });

  test('a task without tools, task agents or mission agents is GRA002 at the task header', () => {
    const src = withMission('  task "a" {\n    objective = "x"\n  }\n');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`GRA002@${at(src, 'task "a"')}`]);
  });

  test('mission agents are a work source for tasks without their own', () => {
    const src = `${MODEL}${AGENT}${withMission('  agents = [agents.expert]\n  task "a" {\n    objective = "x"\n  }\n').slice(MODEL.length)}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([]);
    const t = r.graph!.missions[0]!.tasks[0]!;
    expect([t.agents, t.agentsVia, t.worker]).toEqual([['expert'], 'mission', undefined]);
  });

  test('an explicitly empty task agents list overrides the mission list', () => {
    const src = `${MODEL}${AGENT}${withMission('  agents = [agents.expert]\n  task "a" {\n    objective = "x"\n    agents    = []\n  }\n').slice(MODEL.length)}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`GRA002@${at(src, 'task "a"')}`]);
  });

  test('the worker name is reserved for agents inside a mission too (SCH014)', () => {
    const src = withMission('  agent "worker" {\n    model       = models.claude.claude_haiku_4_5\n    personality = "p"\n  }\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n');
    expect(codes(loadHcl(src))).toEqual([`SCH014@${at(src, '"worker"')}`]);
  });

  test('unknown toolsets are errors (REF003)', () => {
    const src = withMission('  task "a" {\n    objective = "x"\n    tools     = [toolsets.browsing]\n  }\n');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF003@${at(src, 'toolsets.browsing')}`]);
  });

  test('a second agent_defaults block is SCH005', () => {
    const src = withMission('  agent_defaults {\n  }\n  agent_defaults {\n  }\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`SCH005@${at(src, 'agent_defaults', 1)}`]);
    expect(r.diagnostics[0]!.message).toBe('mission "m" may have at most one agent_defaults block');
  });

  test('a task model without task tools is a GRA009 warning, and the config stays valid', () => {
    const src = `${MODEL}${AGENT}${withMission('  task "a" {\n    objective = "x"\n    agents    = [agents.expert]\n    model     = models.claude.claude_haiku_4_5\n  }\n').slice(MODEL.length)}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`w:GRA009@${at(src, 'model     = models.claude.claude_haiku')}`]);
    expect(r.diagnostics[0]!.message).toBe('model has no effect: task "a" declares no tools, so it has no worker');
    expect(r.graph).toBeDefined();
  });
});

describe('the worker spec', () => {
  const full = `${MODEL}toolset "browsing" {\n  tools = [builtins.http.get, builtins.http.post]\n}\ntoolset "io" {\n  tools = [builtins.files.read, builtins.files.write]\n}\nskill "cite" {\n  description  = "Cite sources"\n  instructions = "Always cite."\n}\nskill "tone" {\n  description  = "Tone"\n  instructions = "Be brief."\n}\n${AGENT}mission "m" {\n  commander {\n    model     = models.claude.claude_sonnet_5_5\n    reasoning = "medium"\n  }\n  agent_defaults {\n    model               = models.claude.claude_haiku_4_5\n    reasoning           = "low"\n    tools               = [toolsets.io, builtins.http.get]\n    skills              = [skills.tone, skills.cite]\n    discovery           = true\n    discovery_threshold = 8\n    max_turns           = 20\n  }\n  task "gather" {\n    objective   = "Collect"\n    tools       = [toolsets.browsing, builtins.utils.current_time, builtins.http.get]\n    agents      = [agents.expert]\n    model       = models.claude.claude_opus_5_5\n    skills      = [skills.cite]\n    always_load = [builtins.utils.current_time, toolsets.io]\n  }\n  task "plain" {\n    objective  = "Summarize"\n    depends_on = [tasks.gather]\n    tools      = []\n    reasoning  = "high"\n    discovery  = false\n    discovery_threshold = 4\n    max_turns  = 3\n  }\n}\n`;
  const graph = (): MissionGraph => {
    const r = loadHcl(full);
    expect(codes(r)).toEqual([]);
    return r.graph!;
  };

  test('tools: task tools (toolsets expanded in place) then agent_defaults tools, de-duplicated, first wins', () => {
    const w = graph().missions[0]!.tasks[0]!.worker!;
    expect(w.tools).toEqual([
      { ref: 'builtins.http.get', via: 'toolset:browsing' },
      { ref: 'builtins.http.post', via: 'toolset:browsing' },
      { ref: 'builtins.utils.current_time', via: 'task' },
      { ref: 'builtins.files.read', via: 'toolset:io' },
      { ref: 'builtins.files.write', via: 'toolset:io' },
    ]);
  });

  test('skills: task skills then agent_defaults skills, de-duplicated', () => {
    const w = graph().missions[0]!.tasks[0]!.worker!;
    expect(w.skills).toEqual([
      { name: 'cite', via: 'task' },
      { name: 'tone', via: 'agent_defaults' },
    ]);
  });

  test('model, reasoning and settings fall back task → agent_defaults → commander / defaults', () => {
    const [gather, plain] = graph().missions[0]!.tasks;
    expect(gather!.worker!.model.key).toBe('claude_opus_5_5');
    expect(gather!.worker!.modelVia).toBe('task');
    expect(gather!.worker!.reasoning).toBe('low');
    expect([gather!.worker!.discovery, gather!.worker!.discoveryThreshold, gather!.worker!.maxTurns]).toEqual(['on', 8, 20]);
    expect(gather!.worker!.alwaysLoad).toEqual(['builtins.utils.current_time', 'builtins.files.read', 'builtins.files.write']);
    expect(gather!.agents).toEqual(['expert']);
    expect(plain!.worker!.model.key).toBe('claude_haiku_4_5');
    expect(plain!.worker!.modelVia).toBe('agent_defaults');
    expect(plain!.worker!.reasoning).toBe('high');
    expect([plain!.worker!.discovery, plain!.worker!.discoveryThreshold, plain!.worker!.maxTurns]).toEqual(['off', 4, 3]);
    // `tools = []` still declares a worker: it holds the agent_defaults tools.
    expect(plain!.worker!.tools.map((t) => t.via)).toEqual(['toolset:io', 'toolset:io', 'agent_defaults']);
  });

  test('without agent_defaults the worker inherits the commander model and reasoning; discovery is auto, threshold 16', () => {
    const r = loadHcl(withMission('  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n'));
    const w = r.graph!.missions[0]!.tasks[0]!.worker!;
    expect([w.modelVia, w.model.key, w.discovery, w.discoveryThreshold, w.maxTurns]).toEqual(['commander', 'claude_sonnet_5_5', 'auto', 16, undefined]);
  });

  test('an inherited reasoning effort is dropped for a model without reasoning', () => {
    const src = `model "o" {\n  provider = "openai"\n}\nmission "m" {\n  commander {\n    model     = models.o.gpt_5\n    reasoning = "high"\n  }\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n    model = models.o.gpt_4o\n  }\n}\n`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.tasks[0]!.worker!.reasoning).toBeUndefined();
  });

  test('always_load outside the task tools is REF011; without tools too', () => {
    const src = withMission('  task "a" {\n    objective   = "x"\n    tools       = [builtins.http.get]\n    always_load = [builtins.http.post]\n  }\n  task "b" {\n    objective   = "x"\n    agents      = []\n    always_load = [builtins.http.get]\n  }\n');
    const r = loadHcl(src);
    expect(codes(r)).toEqual([`REF011@${at(src, 'builtins.http.post')}`, `GRA002@${at(src, 'task "b"')}`, `REF011@${at(src, 'always_load', 1)}`]);
  });

  test('mcp.<server>.all in the tools covers always_load of one of its tools', () => {
    const src = `mcp "fs" {\n  command = "x"\n}\n${withMission('  task "a" {\n    objective   = "x"\n    tools       = [mcp.fs.all]\n    always_load = [mcp.fs.read_file]\n  }\n')}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([]);
    expect(r.graph!.missions[0]!.tasks[0]!.worker!.alwaysLoad).toEqual(['mcp.fs.read_file']);
  });
});

describe('mission inputs and objectives', () => {
  const src = withMission(
    '  input "topic" {\n    type        = "string"\n    description = "What to research"\n  }\n  input "depth" {\n    type    = "integer"\n    default = "3"\n  }\n  input "tags" {\n    type    = "list"\n    default = ["a"]\n  }\n  task "a" {\n    objective = <<-EOT\n      Research ${inputs.topic} to depth ${inputs.depth}.\n    EOT\n    tools = [builtins.http.get]\n  }\n',
  );

  test('inputs keep type, description and converted default; no default means required', () => {
    const m = loadHcl(src).graph!.missions[0]!;
    expect(m.inputs).toEqual([
      { name: 'topic', type: 'string', description: 'What to research', required: true },
      { name: 'depth', type: 'integer', default: 3, required: false },
      { name: 'tags', type: 'list', default: ['a'], required: false },
    ]);
  });

  test('the objective keeps its expression and source text for run time', () => {
    const t = loadHcl(src).graph!.missions[0]!.tasks[0]!;
    expect(t.objective.kind).toBe('Template');
    expect(t.objectiveSource).toBe('<<-EOT\n      Research ${inputs.topic} to depth ${inputs.depth}.\n    EOT');
  });

  test('a default that does not fit the type is SCH007; an unknown type is SCH010', () => {
    const s = withMission('  input "n" {\n    type    = "integer"\n    default = 2.5\n  }\n  input "b" {\n    type = "boolean"\n  }\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n');
    expect(codes(loadHcl(s))).toEqual([`SCH007@${at(s, '2.5')}`, `SCH010@${at(s, '"boolean"')}`]);
  });

  test('defaults convert as HCL does: "0x10" and " 4" are not numbers, "1e3" is', () => {
    const input = (name: string, type: string, value: string): string => `  input "${name}" {\n    type    = "${type}"\n    default = ${value}\n  }\n`;
    const s = withMission(`${input('hex', 'number', '"0x10"')}${input('padded', 'integer', '" 4"')}${input('sci', 'integer', '"1e3"')}  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n`);
    const r = loadHcl(s);
    expect(codes(r)).toEqual([`SCH007@${at(s, '"0x10"')}`, `SCH007@${at(s, '" 4"')}`]);
    expect(r.diagnostics[0]!.message).toBe('the default of input "hex" must be a number, got string');
  });

  test('an objective may only reference inputs and vars (REF012), and only declared ones (REF003)', () => {
    const s = withMission('  input "topic" {\n    type = "string"\n  }\n  task "a" {\n    objective = "Use ${tasks.b} and ${agents.x} for ${inputs.topc}"\n    tools = [builtins.http.get]\n  }\n  task "b" {\n    objective = "${vars.nope}"\n    tools = [builtins.http.get]\n  }\n');
    const r = loadHcl(s);
    expect(codes(r)).toEqual([`REF012@${at(s, 'tasks.b}')}`, `REF012@${at(s, 'agents.x')}`, `REF003@${at(s, 'inputs.topc')}`, `REF003@${at(s, 'vars.nope')}`]);
    expect(r.diagnostics[0]!.message).toBe('an objective can only use inputs.<name> and vars.<name>; it references tasks.b');
    expect(r.diagnostics[3]!.message).toBe('unknown variable "nope"');
  });

  test('load() is not available in objectives (they are rendered at run time)', () => {
    const s = withMission('  task "a" {\n    objective = load("x.md")\n    tools = [builtins.http.get]\n  }\n');
    expect(codes(loadHcl(s))).toEqual([`EVAL005@${at(s, 'load')}`]);
  });
});

describe('outputs and mission-scoped agents', () => {
  test('a task output schema in shorthand or block form', () => {
    const s = withMission('  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n    output = {\n      title = string("Title", true)\n      links = list(string, "Links")\n    }\n  }\n  task "b" {\n    objective = "x"\n    tools = [builtins.http.get]\n    output {\n      field "score" {\n        type     = "number"\n        required = true\n      }\n    }\n  }\n');
    const [a, b] = loadHcl(s).graph!.missions[0]!.tasks;
    expect(a!.output!.map((f) => [f.name, f.type, f.required])).toEqual([
      ['title', 'string', true],
      ['links', 'array', false],
    ]);
    expect(b!.output).toEqual([{ name: 'score', type: 'number', description: '', required: true }]);
  });

  test('a mission-scoped agent with the name of a global agent is SCH008', () => {
    const s = `${MODEL}${AGENT}${withMission('  agent "expert" {\n    model       = models.claude.claude_haiku_4_5\n    personality = "p"\n  }\n  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n').slice(MODEL.length)}`;
    const r = loadHcl(s);
    expect(codes(r)).toEqual([`SCH008@${at(s, '"expert"', 1)}`]);
  });

  test('a mission-scoped agent is usable by its tasks; an unused one is a GRA011 warning', () => {
    const s = withMission('  agent "local" {\n    model       = models.claude.claude_haiku_4_5\n    personality = "p"\n  }\n  agent "idle" {\n    model       = models.claude.claude_haiku_4_5\n    personality = "p"\n  }\n  task "a" {\n    objective = "x"\n    agents = [agents.local]\n  }\n');
    const r = loadHcl(s);
    expect(codes(r)).toEqual([`w:GRA011@${at(s, '"idle"')}`]);
    const m = r.graph!.missions[0]!;
    expect(m.localAgents.map((a) => [a.name, a.scope])).toEqual([
      ['local', 'mission'],
      ['idle', 'mission'],
    ]);
    expect(m.tasks[0]!.agents).toEqual(['local']);
  });

  test('max_parallel defaults to 4', () => {
    expect(loadHcl(withMission('  task "a" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }\n')).graph!.missions[0]!.maxParallel).toBe(4);
  });
});
