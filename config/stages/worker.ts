// The WorkerSpec of a task: its dynamic agent, resolved once at load time. Present exactly when the
// task declares `tools`. Each setting falls back task → mission agent_defaults → commander (model,
// reasoning) or a fixed default (discovery 'auto', threshold 16), and records where it came from.

import type { Attribute } from '../hcl/ast.js';
import { unsupportedReasoning } from './agents.js';
import type { ModelRef, Reasoning, SkillRefWithProvenance, ToolRefWithProvenance, WorkerSpec } from '../graph.js';
import { mergeTools } from '../references.js';
import type { LoadContext } from '../scope.js';
import type { MissionContext } from './missionContext.js';
import { exactList } from '../exactList.js';

export const DEFAULT_DISCOVERY_THRESHOLD = 16;

/** The task's own worker settings, as read from its block (undefined = not set). */
export interface WorkerSettings {
  /** undefined: the task declares no tools (so it has no worker). */
  tools: ToolRefWithProvenance[] | undefined;
  skills: string[] | undefined;
  model: ModelRef | undefined;
  reasoning: Reasoning | undefined;
  reasoningAttr: Attribute | undefined;
  discovery: boolean | undefined;
  discoveryThreshold: number | undefined;
  maxTurns: number | undefined;
}

export function resolveWorker(task: WorkerSettings, mission: MissionContext, ctx: LoadContext): WorkerSpec | undefined {
  if (task.tools === undefined) return undefined;
  const defaults = mission.defaults;
  const commander = mission.commander;

  let model: ModelRef | undefined;
  let modelVia: WorkerSpec['modelVia'];
  if (task.model !== undefined) [model, modelVia] = [task.model, 'task'];
  else if (defaults?.model !== undefined) [model, modelVia] = [defaults.model, 'agent_defaults'];
  else [model, modelVia] = [commander?.model, 'commander'];
  // No model means the commander (or the task's model) failed to resolve: already reported.
  if (model === undefined) return undefined;

  const tools: ToolRefWithProvenance[] = [];
  const seen = new Set<string>();
  mergeTools(tools, task.tools, seen);
  mergeTools(tools, defaults?.tools ?? [], seen);

  const skills: SkillRefWithProvenance[] = [];
  for (const name of task.skills ?? []) if (!skills.some((s) => s.name === name)) skills.push({ name, via: 'task' });
  for (const s of defaults?.skills ?? []) if (!skills.some((x) => x.name === s.name)) skills.push(s);

  let reasoning = task.reasoning ?? defaults?.reasoning ?? commander?.reasoning;
  if (reasoning !== undefined && model.supportsReasoning === false) {
    // An inherited effort is dropped quietly for a model without reasoning; the task's own is
    // reported unless readReasoning already did (it did when the task names its own model).
    if (task.reasoning !== undefined && task.reasoningAttr !== undefined && task.model === undefined) {
      ctx.diags.push(unsupportedReasoning(task.reasoningAttr, model, task.reasoning));
    }
    reasoning = undefined;
  }

  const discovery = task.discovery ?? defaults?.discovery;
  const worker: WorkerSpec = {
    name: 'worker',
    model,
    modelVia,
    tools: ctx.toolLists.intern(tools),
    skills: exactList(skills),
    discovery: discovery === undefined ? 'auto' : discovery ? 'on' : 'off',
    discoveryThreshold: task.discoveryThreshold ?? defaults?.discoveryThreshold ?? DEFAULT_DISCOVERY_THRESHOLD,
    alwaysLoad: exactList([]),
  };
  if (reasoning !== undefined) worker.reasoning = reasoning;
  const maxTurns = task.maxTurns ?? defaults?.maxTurns;
  if (maxTurns !== undefined) worker.maxTurns = maxTurns;
  if (defaults?.toolResponse !== undefined) worker.toolResponse = defaults.toolResponse;
  if (defaults?.context !== undefined) worker.context = defaults.context;
  return worker;
}
