// The run's start-up check of model credentials: every model block the run may call — the
// commander's, the workers', the mission's agents', and the `sampling_model` of each MCP server with
// `sampling = true` — must have what its provider needs, so a missing key refuses the run before any
// work instead of failing a model call (a sampling request, say) in the middle of it.

import type { Mission, MissionGraph, ModelBlock, ModelRef } from '../../config/graph.js';
import { RunRefused } from './runRefused.js';

/** Throws RunRefused ('usage') naming each block without credentials and where it is used. */
export function checkModelCredentials(graph: MissionGraph, mission: Mission, replayFlag: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (replayFlag !== undefined) return; // every model replays a cassette
  const uses = new Map<string, string[]>();
  const use = (ref: ModelRef | undefined, where: string): void => {
    if (!ref) return;
    uses.set(ref.block, [...(uses.get(ref.block) ?? []), where]);
  };
  use(mission.commander.model, 'the commander');
  for (const task of mission.tasks) use(task.worker?.model, `the worker of task "${task.name}"`);
  const agentNames = new Set(mission.tasks.flatMap((t) => t.agents));
  for (const agent of [...mission.localAgents, ...graph.agents]) if (agentNames.has(agent.name)) use(agent.model, `agent "${agent.name}"`);
  for (const server of graph.mcpServers) if (server.sampling) use(server.samplingModel, `the sampling_model of mcp "${server.name}"`);

  const missing: string[] = [];
  for (const [name, where] of uses) {
    const block = graph.models.find((m) => m.name === name);
    const need = block && missingCredential(block, env);
    if (need) missing.push(`model "${name}" (used by ${[...new Set(where)].join(', ')}) has no api_key and ${need} is not set`);
  }
  if (missing.length > 0) throw new RunRefused(`${missing.join('; ')}: set api_key on the model block (e.g. api_key = vars.<secret>) or the environment variable`, 'usage');
}

/** The environment variable the provider would fall back on, when the block has no key and it is unset too. */
function missingCredential(block: ModelBlock, env: NodeJS.ProcessEnv): string | undefined {
  if (block.apiKey !== undefined) return undefined;
  if (block.provider === 'anthropic') return env['ANTHROPIC_API_KEY'] || env['ANTHROPIC_AUTH_TOKEN'] ? undefined : 'ANTHROPIC_API_KEY';
  // A local OpenAI-compatible server (base_url) may need no key; replay needs none.
  if (block.provider === 'openai' && block.baseUrl === undefined) return env['OPENAI_API_KEY'] ? undefined : 'OPENAI_API_KEY';
  if (block.provider === 'gemini' && block.baseUrl === undefined) return env['GEMINI_API_KEY'] || env['GOOGLE_API_KEY'] ? undefined : 'GEMINI_API_KEY';
  return undefined;
}
