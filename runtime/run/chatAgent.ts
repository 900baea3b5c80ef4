// The agent of a chat (`squadron chat <agent>`), built exactly as a mission builds a declared agent
// (its model, tools, toolsets, skills, MCP servers, approvals, limits: declaredAgentDefinition) inside
// a mission of its own, `chat:<agent>`, whose one task `chat` holds it. Only the system prompt
// differs: prompts/chat.md says a person is talking, where prompts/agent.md says a commander is.

import type { AgentSpec, Mission, MissionGraph, TaskSpec } from '../../config/graph.js';
import { didYouMean } from '../../config/hcl/index.js';
import { CHAT_TASK, chatMissionName } from '../../core/chatRuns.js';
import { renderPrompt } from '../../core/promptTemplates.js';
import { declaredAgentDefinition, skillsSection, type AgentDefinition } from '../agents/definitions.js';
import type { SelectionOverrides, ToolResolver } from '../agents/runContext.js';

/** A chat asked of an agent the config does not declare (the message names those it does). */
export class UnknownChatAgent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownChatAgent';
  }
}

/** An agent one can chat with: a top-level agent, or one declared inside a mission (named `mission`). */
export interface ChatAgent {
  spec: AgentSpec;
  mission?: Mission;
}

/** The agents of the config one can chat with, top-level ones first, each name once. */
export function chatAgents(graph: MissionGraph): ChatAgent[] {
  const out: ChatAgent[] = graph.agents.map((spec) => ({ spec }));
  for (const mission of graph.missions) {
    for (const spec of mission.localAgents) if (!out.some((a) => a.spec.name === spec.name)) out.push({ spec, mission });
  }
  return out;
}

/** The agent named `name`; a refusal naming the agents there are (and the nearest spelling) otherwise. */
export function findChatAgent(graph: MissionGraph, name: string): ChatAgent {
  const agents = chatAgents(graph);
  const found = agents.find((a) => a.spec.name === name);
  if (found) return found;
  const names = agents.map((a) => a.spec.name);
  if (names.length === 0) throw new UnknownChatAgent(`no agent "${name}": the config declares no agent to chat with (add an \`agent "name" { … }\` block)`);
  const hint = didYouMean(name, names);
  throw new UnknownChatAgent(`no agent "${name}" in the config${hint ? `. ${hint}` : ''} (agents: ${names.join(', ')})`);
}

/** The chat's own mission: one task, `chat`, whose one agent is the chat's (with its mission's defaults and memory when it is declared in one). */
export function chatMission(agent: ChatAgent): Mission {
  const { spec } = agent;
  const name = chatMissionName(spec.name);
  const start = { line: spec.location.line, column: spec.location.column, offset: 0 };
  const task: TaskSpec = {
    name: CHAT_TASK,
    mission: name,
    // A chat has no objective: each of the person's messages is an instruction of its own.
    objective: { kind: 'Literal', value: '', range: { file: spec.location.file, start, end: start } },
    objectiveSource: '',
    dependsOn: [],
    agents: [spec.name],
    agentsVia: 'task',
    router: [],
    sendTo: [],
    location: spec.location,
  };
  const mission: Mission = {
    name,
    commander: { model: spec.model },
    agents: [spec.name],
    localAgents: agent.mission ? [spec] : [],
    maxParallel: 1,
    schedules: [],
    notifications: [],
    inputs: [],
    datasets: [],
    tasks: [task],
    location: spec.location,
  };
  if (agent.mission?.agentDefaults) mission.agentDefaults = agent.mission.agentDefaults;
  if (agent.mission?.slots) mission.slots = agent.mission.slots;
  return mission;
}

/** The agent's definition as a mission's task would build it, with the chat's system prompt. */
export async function chatAgentDefinition(graph: MissionGraph, agent: ChatAgent, mission: Mission, tools: ToolResolver, overrides: SelectionOverrides): Promise<AgentDefinition> {
  const task = mission.tasks[0]!;
  const def = await declaredAgentDefinition({ graph, mission, task, objective: '', tools, overrides }, agent.spec);
  const systemPrompt = renderPrompt('chat', {
    name: agent.spec.name,
    personality: agent.spec.personality,
    hasTools: def.tools.length > 0,
    skills: skillsSection(def.skills, []),
  });
  return { ...def, systemPrompt };
}
