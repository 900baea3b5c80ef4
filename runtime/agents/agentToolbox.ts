// Builds the toolbox of one agent session from its definition: its authorized world tools, and —
// when it discovers tools progressively — search_tools/get_tool_schema with only the loaded tools
// visible; when it has skills, load_skill, whose tools become callable from the next turn. What was
// loaded is stored with the session, so a resumed session sends the same tool list again.

import type { ApprovalVia, McpPromptSkill, Skill, ToolRefWithProvenance } from '../../config/graph.js';
import { approvalOf } from '../../config/stages/approval.js';
import type { DiscoveryState, ToolIndex } from '../discovery/index.js';
// The search index and its thesaurus load only for a session that discovers its tools (below).
import { GET_TOOL_SCHEMA, SEARCH_TOOLS } from '../discovery/definitions.js';
import type { ToolResolver } from './runContext.js';
import { executeLoadSkill, loadSkillToolDefinition, SkillSession } from '../skills/index.js';
import type { ToolContext, ToolSpec } from '../tools/types.js';
import type { AgentDefinition } from './definitions.js';
import { resolveGivenTools } from './definitions.js';
import { Toolbox, type SessionTool } from '../tools/toolbox.js';

const SKILL_PREFIX = 'skill:';

/** What a toolbox needs from its surroundings; `plan` supplies inert versions of the side effects. */
export interface ToolboxScope {
  resolver: ToolResolver;
  /** The execution context of a world tool call. */
  toolContext: (callId: string, signal: AbortSignal) => ToolContext;
  /** Tool refs and `skill:<name>` entries the session loaded before (resume), in load order. */
  stored: readonly string[];
  /** Records a newly loaded tool ref or `skill:<name>` (persist it, tell the user). */
  onLoaded: (entry: string) => Promise<void>;
  /** Receives what to call when the session ends (it stops following its servers' tool changes). */
  onClose?: (close: () => void) => void;
  /** Why a tool's calls wait for the operator's approval (set from the definition's rules). */
  approvalOf?: (ref: string) => ApprovalVia | undefined;
}

export async function buildAgentToolbox(given: ToolboxScope, def: AgentDefinition): Promise<Toolbox> {
  const scope: ToolboxScope = { ...given, approvalOf: (ref) => approvalOf(ref, [], def.approvalRules ?? []) };
  const world = def.tools.map((spec) => worldTool(spec, scope));
  let toolbox: Toolbox;
  let discovery: { index: ToolIndex; state: DiscoveryState; lib: typeof import('../discovery/index.js') } | undefined;

  if (def.discovery) {
    const lib = await import('../discovery/index.js');
    const { createDiscoveryState, discoveryToolDefinitions, getToolSchema, searchTools, unknownToolResult } = lib;
    const { index } = def.discovery;
    // Replaced whole when a server changes its tools (followToolChanges); the handlers read the current one.
    const current = { index, state: createDiscoveryState(index), lib };
    discovery = current;
    const [searchDef, schemaDef] = discoveryToolDefinitions();
    const search: SessionTool = {
      ref: SEARCH_TOOLS,
      definition: searchDef!,
      onInterrupted: 'rerun',
      execute: async (call) => searchTools(current.index, call.input),
    };
    const schema: SessionTool = {
      ref: GET_TOOL_SCHEMA,
      definition: schemaDef!,
      onInterrupted: 'rerun',
      execute: async (call) => {
        const { index, state } = current;
        const before = new Set(state.loaded());
        const result = getToolSchema(index, state, call.input);
        for (const ref of state.loaded()) {
          if (before.has(ref)) continue;
          await scope.onLoaded(ref);
          const tool = index.lookup(ref);
          if (tool) toolbox.show(tool.apiName);
        }
        return result;
      },
    };
    toolbox = new Toolbox([search, schema, ...world], [SEARCH_TOOLS, GET_TOOL_SCHEMA, ...def.discovery.alwaysLoad]);
    toolbox.describeUnknown = (name) => textOf(unknownToolResult(current.index, name).content);
  } else {
    toolbox = new Toolbox(world);
  }

  const reindex = discovery;
  followToolChanges(scope, toolbox, def, world, (specs) => {
    if (!reindex) return;
    // Search covers exactly the tools the agent now holds; what it had loaded and still holds stays loaded.
    const index = reindex.lib.createToolIndex(specs);
    reindex.state = reindex.lib.createDiscoveryState(index, reindex.state.loaded());
    reindex.index = index;
  });
  await unlockTools(scope, toolbox, def.preloadedSkills.flatMap((s) => s.tools));
  const skills = def.skills.length > 0 ? addSkills(scope, toolbox, def.skills, def.preloadedSkills) : undefined;

  // Replaying what the session loaded, in the order it loaded it, rebuilds the tool list of a
  // resumed session exactly as it was sent before (same tools, same order: the cache prefix holds).
  for (const entry of scope.stored) {
    const loaded = loadedEntry(entry);
    if (loaded.kind === 'tool') {
      const tool = discovery?.index.lookup(loaded.ref);
      if (tool && discovery?.state.markLoaded(tool.ref)) toolbox.show(tool.apiName);
    } else if (skills) {
      const outcome = skills.load(loaded.name);
      if (outcome.ok && !outcome.alreadyLoaded) await unlockTools(scope, toolbox, outcome.tools);
    }
  }
  return toolbox;
}

/**
 * When a server the agent holds tools of changes its tools, the agent's declared refs are resolved
 * again — authorization re-applied: `mcp.<server>.all` brings the new tools, a named tool only
 * itself — and the toolbox holds the fresh list from the next turn. `onFresh` gets the fresh specs
 * first (a worker that discovers its tools searches them from then on).
 */
function followToolChanges(
  scope: ToolboxScope,
  toolbox: Toolbox,
  def: AgentDefinition,
  initial: readonly SessionTool[],
  onFresh: (specs: readonly ToolSpec[]) => void,
): void {
  if (!scope.resolver.onToolsChanged || !def.declaredTools.some((t) => t.ref.startsWith('mcp.'))) return;
  let held = initial.map((t) => t.definition.name);
  const stop = scope.resolver.onToolsChanged(async (server) => {
    if (!def.declaredTools.some((t) => t.ref.startsWith(`mcp.${server}.`))) return;
    let specs: ToolSpec[];
    try {
      specs = (await resolveGivenTools(scope.resolver, def.declaredTools)).tools;
    } catch {
      return; // two tools now share an API name: the agent keeps the tools it had
    }
    const fresh = specs.map((spec) => worldTool(spec, scope));
    onFresh(specs);
    toolbox.replace(held, fresh, def.discovery === undefined);
    held = fresh.map((t) => t.definition.name);
  });
  scope.onClose?.(stop);
}

/**
 * Adds load_skill (authorized and shown); returns the session's skill state. Preloaded skills count
 * as loaded from the start: loading one again answers with its instructions instead of "unknown".
 */
function addSkills(scope: ToolboxScope, toolbox: Toolbox, skills: readonly Skill[], preloaded: readonly Skill[]): SkillSession {
  const session = new SkillSession([...skills, ...preloaded]);
  for (const skill of preloaded) session.load(skill.name);
  const { resolver } = scope;
  const loadSkill: SessionTool = {
    ref: 'load_skill',
    definition: loadSkillToolDefinition(skills.some((s) => s.prompt !== undefined)),
    onInterrupted: 'rerun',
    execute: async (call) => {
      const before = new Set(session.loaded());
      const loadPrompt = resolver.loadPrompt ? (prompt: McpPromptSkill, args: Readonly<Record<string, string>>) => resolver.loadPrompt!(prompt, args, call.signal) : undefined;
      const outcome = await executeLoadSkill(session, call.input, loadPrompt);
      await unlockTools(scope, toolbox, outcome.newTools);
      for (const name of session.loaded()) if (!before.has(name)) await scope.onLoaded(`${SKILL_PREFIX}${name}`);
      return outcome.result;
    },
  };
  toolbox.authorize(loadSkill);
  toolbox.show(loadSkill.definition.name);
  return session;
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
export function worldTool(spec: ToolSpec, scope: Pick<ToolboxScope, 'toolContext' | 'approvalOf'>): SessionTool {
  const approval = scope.approvalOf?.(spec.ref);
  return {
    ...(approval !== undefined ? { approval } : {}),
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
