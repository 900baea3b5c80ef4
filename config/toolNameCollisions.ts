// Two tools given to one agent must not share an API name: `mcp.x.crm_get_customer` and
// `mcp.x_crm.get_customer` both become `mcp_x_crm_get_customer`, and the model could call only one of
// them, not knowing which. The loader checks the refs it can name (explicit ones); `validate`, once
// it has each MCP server's tool list, checks again with `mcp.<server>.all` expanded. The runtime
// refuses such a toolbox too (runtime/agents/definitions.ts), so one is never offered under the
// other's name.

import { diagnosticAt, rangeAtLocation, relatedAt, type Diagnostic, type Range } from './hcl/diagnostic.js';
import type { McpToolReference, MissionGraph, SourceLocation, ToolRefWithProvenance } from './graph.js';
import { isMcpAll } from './toolRefs.js';
import { toolApiName } from './toolNames.js';

/** The tool names of an MCP server, when known (validate's MCP pass); undefined leaves `.all` unexpanded. */
export type McpToolNames = (server: string) => readonly string[] | undefined;

interface Holder {
  /** `worker of task "t"` or `agent "a"`. */
  label: string;
  location: SourceLocation;
  tools: readonly ToolRefWithProvenance[];
}

interface Given {
  ref: string;
  via: string;
  /** The `mcp.<server>.all` it was expanded from. */
  from?: string;
}

/**
 * One REF015 error per pair of tools of one agent that share an API name. `onlyExpanded` keeps only
 * collisions that involve a tool expanded from `mcp.<server>.all` (the loader already reported the rest).
 * `seen`: the pairs already reported, when a graph is checked in parts (each mission as it loads,
 * then the global agents), so a pair is still reported once, by the first holder.
 */
export function toolNameCollisions(
  graph: Pick<MissionGraph, 'agents' | 'missions' | 'skills'> & { mcpToolRefs?: readonly McpToolReference[] },
  mcpTools: McpToolNames = () => undefined,
  onlyExpanded = false,
  seen = new Set<string>(),
): Diagnostic[] {
  const diags: Diagnostic[] = [];
  for (const holder of holders(graph)) {
    const byName = new Map<string, Given>();
    for (const given of expand(holder.tools, mcpTools)) {
      const name = toolApiName(given.ref);
      const other = byName.get(name);
      if (!other) {
        byName.set(name, given);
        continue;
      }
      if (other.ref === given.ref) continue;
      if (onlyExpanded && other.from === undefined && given.from === undefined) continue;
      const key = `${[other.ref, given.ref].sort().join('\u0000')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      diags.push(collision(holder, name, other, given, graph.mcpToolRefs ?? []));
    }
  }
  return diags;
}

/** One at a time: a large config has hundreds of thousands, each garbage once checked. */
function* holders(graph: Pick<MissionGraph, 'agents' | 'missions' | 'skills'>): Generator<Holder> {
  const skillTools = (names: readonly { name: string }[]): ToolRefWithProvenance[] =>
    names.flatMap((n) => graph.skills.find((s) => s.name === n.name)?.tools ?? []);
  for (const mission of graph.missions) {
    for (const task of mission.tasks) {
      if (task.worker) yield { label: `the worker of task "${task.name}"`, location: task.location, tools: [...task.worker.tools, ...skillTools(task.worker.skills)] };
    }
    for (const agent of mission.localAgents) yield { label: `agent "${agent.name}"`, location: agent.location, tools: [...agent.tools, ...skillTools(agent.skills)] };
  }
  for (const agent of graph.agents) yield { label: `agent "${agent.name}"`, location: agent.location, tools: [...agent.tools, ...skillTools(agent.skills)] };
}

function expand(tools: readonly ToolRefWithProvenance[], mcpTools: McpToolNames): Given[] {
  const out: Given[] = [];
  for (const tool of tools) {
    if (!isMcpAll(tool.ref) || !tool.ref.startsWith('mcp.')) {
      out.push({ ref: tool.ref, via: tool.via });
      continue;
    }
    const server = tool.ref.slice('mcp.'.length, -'.all'.length);
    for (const name of mcpTools(server) ?? []) out.push({ ref: `mcp.${server}.${name}`, via: tool.via, from: tool.ref });
  }
  return out;
}

function collision(holder: Holder, name: string, first: Given, second: Given, refs: readonly McpToolReference[]): Diagnostic {
  const firstAt = rangeOf(first, refs, holder.location);
  const secondAt = rangeOf(second, refs, holder.location);
  const describe = (g: Given): string => `${g.ref}${g.from ? ` (from ${g.from})` : ''}`;
  const message = `${holder.label} is given two tools named "${name}" on the model API: ${describe(first)} and ${describe(second)}`;
  const d = diagnosticAt(secondAt ?? rangeAtLocation(holder.location), 'error', 'REF015', message, 'a model could call only one of them; give this agent only one, or rename an MCP server so their names differ');
  if (firstAt) d.related = relatedAt(`${first.from ?? first.ref} is at`, firstAt);
  else if (secondAt) d.related = relatedAt(`${holder.label} is declared at`, rangeAtLocation(holder.location));
  return d;
}

/**
 * Where a ref (or the `.all` it came from) is written, when the loader recorded it: the first
 * occurrence after the holder's block starts in its file (its own list), else the first anywhere (a toolset).
 */
function rangeOf(given: Given, refs: readonly McpToolReference[], near: SourceLocation): Range | undefined {
  const ref = given.from ?? given.ref;
  const all = refs.filter((r) => `mcp.${r.server}.${r.tool}` === ref).map((r) => r.range);
  const after = all.filter((r) => r.file === near.file && r.start.line >= near.line).sort((a, b) => a.start.line - b.start.line || a.start.column - b.start.column);
  return after[0] ?? all[0];
}
