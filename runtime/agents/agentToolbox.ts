// Builds the toolbox of one agent session from its definition: its authorized world tools, and —
// when it discovers tools progressively — search_tools/get_tool_schema with only the loaded tools
// visible; when it has skills, load_skill, whose tools become callable from the next turn. What was
// loaded is stored with the session, so a resumed session sends the same tool list again.

import type { Skill, ToolRefWithProvenance } from '../../config/graph.js';
import {
  createDiscoveryState,
  createToolIndex,
  discoveryToolDefinitions,
  GET_TOOL_SCHEMA,
  getToolSchema,
  SEARCH_TOOLS,
  searchTools,
  unknownToolResult,
} from '../discovery/index.js';
import type { ToolResolver } from '../runContext.js';
import { executeLoadSkill, loadSkillToolDefinition, SkillSession } from '../skills/index.js';
import type { ToolContext, ToolSpec } from '../tools/types.js';
import type { AgentDefinition } from './definitions.js';
import { resolveGivenTools } from './definitions.js';
import { Toolbox, type SessionTool } from './toolbox.js';

const SKILL_PREFIX = 'skill:';

/** What a toolbox needs from its surroundings; `plan` supplies inert versions of the side effects. */
export interface ToolboxScope {
  resolver: ToolResolver;
  /** The execution context of a world tool call. */
  toolContext: (callId: string, signal: AbortSignal) => ToolContext;
  /** Tool refs and `skill:<name>` entries the session loaded before (resume). */
  stored: readonly string[];
  /** Records a newly loaded tool ref or `skill:<name>` (persist it, tell the user). */
  onLoaded: (entry: string) => void;
}

export async function buildAgentToolbox(scope: ToolboxScope, def: AgentDefinition): Promise<Toolbox> {
  const { stored } = scope;
  const world = def.tools.map((spec) => worldTool(spec, scope));
  let toolbox: Toolbox;

  if (def.discovery) {
    const index = createToolIndex(def.tools);
    const state = createDiscoveryState(index, stored.filter((ref) => !ref.startsWith(SKILL_PREFIX)));
    const [searchDef, schemaDef] = discoveryToolDefinitions();
    const search: SessionTool = {
      ref: SEARCH_TOOLS,
      definition: searchDef!,
      onInterrupted: 'rerun',
      execute: async (call) => searchTools(index, call.input),
    };
    const schema: SessionTool = {
      ref: GET_TOOL_SCHEMA,
      definition: schemaDef!,
      onInterrupted: 'rerun',
      execute: async (call) => {
        const before = new Set(state.loaded());
        const result = getToolSchema(index, state, call.input);
        for (const ref of state.loaded()) {
          if (before.has(ref)) continue;
          scope.onLoaded(ref);
          const tool = index.lookup(ref);
          if (tool) toolbox.show(tool.apiName);
        }
        return result;
      },
    };
    const visible = [SEARCH_TOOLS, GET_TOOL_SCHEMA, ...def.discovery.alwaysLoad, ...state.loaded()];
    toolbox = new Toolbox([search, schema, ...world], visible);
    toolbox.describeUnknown = (name) => textOf(unknownToolResult(index, name).content);
  } else {
    toolbox = new Toolbox(world);
  }

  await unlockTools(scope, toolbox, def.preloadedSkills.flatMap((s) => s.tools));
  if (def.skills.length > 0) await addSkills(scope, toolbox, def.skills, stored);
  return toolbox;
}

async function addSkills(scope: ToolboxScope, toolbox: Toolbox, skills: readonly Skill[], stored: readonly string[]): Promise<void> {
  const storedSkills = stored.filter((ref) => ref.startsWith(SKILL_PREFIX)).map((ref) => ref.slice(SKILL_PREFIX.length));
  const { session } = SkillSession.restore(skills, storedSkills);
  await unlockTools(scope, toolbox, session.unlockedTools());
  const loadSkill: SessionTool = {
    ref: 'load_skill',
    definition: loadSkillToolDefinition(),
    onInterrupted: 'rerun',
    execute: async (call) => {
      const before = new Set(session.loaded());
      const outcome = executeLoadSkill(session, call.input);
      await unlockTools(scope, toolbox, outcome.newTools);
      for (const name of session.loaded()) if (!before.has(name)) scope.onLoaded(`${SKILL_PREFIX}${name}`);
      return outcome.result;
    },
  };
  toolbox.authorize(loadSkill);
  toolbox.show(loadSkill.definition.name);
}

/** Authorizes and shows the tools a skill brings (resolved like declared tools). */
async function unlockTools(scope: ToolboxScope, toolbox: Toolbox, refs: readonly ToolRefWithProvenance[]): Promise<void> {
  if (refs.length === 0) return;
  const { tools } = await resolveGivenTools(scope.resolver, refs);
  for (const spec of tools) {
    toolbox.authorize(worldTool(spec, scope));
    toolbox.show(spec.apiName);
  }
}

/** Adapts a world tool (builtin, custom, MCP) to a session tool bound to this run's context. */
export function worldTool(spec: ToolSpec, scope: Pick<ToolboxScope, 'toolContext'>): SessionTool {
  return {
    ref: spec.ref,
    definition: { name: spec.apiName, description: spec.description, inputSchema: spec.inputSchema },
    onInterrupted: spec.idempotent ? 'rerun' : 'report',
    execute: (call) => spec.execute(call.input, scope.toolContext(call.callId, call.signal)),
  };
}

/** Splits a stored loaded-tools entry: a tool ref, or `skill:<name>`. */
export function loadedEntry(entry: string): { kind: 'tool'; ref: string } | { kind: 'skill'; name: string } {
  return entry.startsWith(SKILL_PREFIX) ? { kind: 'skill', name: entry.slice(SKILL_PREFIX.length) } : { kind: 'tool', ref: entry };
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content.map((c) => c.text ?? '').join('');
}
