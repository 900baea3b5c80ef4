// The optional second pass of `squadron validate`: ask each referenced MCP server for its tools and
// report `mcp.<server>.<tool>` references to tools it does not offer, at the reference itself. The
// loader never contacts a server; this pass is async and injectable. With the lists it also checks
// that no agent is given two tools of one API name once `mcp.<server>.all` is expanded. With
// --offline it runs on the servers' cached tool lists (`source: 'cache'`), and its findings are warnings.
// A server named in `mcp.<server>.prompts.<prompt>` skills is asked for its prompts too (online only:
// prompt lists are not cached), and an unknown prompt is reported at the reference (`MCP004`).

import { diagnosticAt, rangeAtLocation, type Diagnostic } from './hcl/diagnostic.js';
import type { McpPromptReference, McpServer, MissionGraph } from './graph.js';
import { suggestionHint } from './suggest.js';
import { toolNameCollisions } from './toolNameCollisions.js';
import { RESOURCES_TOOL } from './toolRefs.js';

/**
 * Lists a server's tool names, or says why it could not. `taskOnly`: tools the server offers that
 * only run as MCP tasks, which Squadron leaves out (reported as MCP003 warnings).
 */
export type McpToolLister = (server: McpServer, want?: McpListWant) => Promise<string[] | McpToolListing | { error: string }>;

export interface McpListWant {
  prompts: boolean;
  /**
   * The project's `allowed_hosts`: a remote server is reached under the host policy, as a run
   * reaches it (loopback, private and link-local addresses refused unless listed).
   */
  allowedHosts: readonly string[];
}

/** How the host policy's refusal reads (core/hostPolicy.ts refusedAddress). */
const HOST_REFUSED = /refused unless allowed_hosts lists them/;

export interface McpToolListing {
  tools: string[];
  taskOnly: string[];
  /** The server's prompt names, when asked for and listed (`[]`: it offers none); absent: unchecked. */
  prompts?: string[];
}

export interface McpCheckOptions {
  /**
   * Where the lister's tool lists come from. `cache` (validate --offline): the last lists a server
   * gave, which may be stale or missing, so every finding is a warning instead of an error.
   */
  source?: 'server' | 'cache';
}

export async function checkMcpReferences(graph: MissionGraph, lister: McpToolLister, opts: McpCheckOptions = {}): Promise<Diagnostic[]> {
  const refs = graph.mcpToolRefs ?? [];
  const promptRefs = graph.mcpPromptRefs ?? [];
  const referenced = graph.mcpServers.filter((s) => refs.some((r) => r.server === s.name) || promptRefs.some((r) => r.server === s.name));
  const diags: Diagnostic[] = [];
  // A server whose config needs a variable without a value (validate without secrets) cannot be
  // started or reached: its references stay unchecked, and a warning says why.
  for (const s of referenced.filter((r) => r.needsVariables !== undefined)) {
    const needs = s.needsVariables!.map((n) => `vars.${n}`).join(', ');
    diags.push(
      diagnosticAt(rangeAtLocation(s.location, 'mcp'.length), 'warning', 'MCP002', `mcp server "${s.name}" was not contacted, so its tool references are unchecked: its config needs ${needs}, which has no value`, 'pass the value with --var to check them'),
    );
  }
  const servers = referenced.filter((s) => s.needsVariables === undefined);
  const listed = await Promise.all(
    servers.map(async (s) => {
      try {
        return [s, await lister(s, { prompts: promptRefs.some((r) => r.server === s.name), allowedHosts: graph.allowedHosts ?? [] })] as const;
      } catch (err) {
        return [s, { error: err instanceof Error ? err.message : String(err) }] as const;
      }
    }),
  );
  const cached = opts.source === 'cache';
  const severity = cached ? 'warning' : 'error';
  const listingOf = (result: string[] | McpToolListing | { error: string }): McpToolListing | undefined =>
    Array.isArray(result) ? { tools: result, taskOnly: [] } : 'tools' in result ? result : undefined;
  const lists = new Map(listed.flatMap(([server, result]) => (listingOf(result) ? [[server.name, listingOf(result)!.tools] as const] : [])));
  for (const [server, listedResult] of listed) {
    const listing = listingOf(listedResult);
    if (listing === undefined) {
      const at = rangeAtLocation(server.location, 'mcp'.length);
      const error = (listedResult as { error: string }).error;
      diags.push(
        cached
          ? diagnosticAt(at, severity, 'MCP002', `mcp server "${server.name}" was not contacted (offline), so its tool references are unchecked: ${error}`, 'validate without --offline to check them')
          : diagnosticAt(
              at,
              severity,
              'MCP002',
              `mcp server "${server.name}" could not be contacted to list its tools: ${error}`,
              HOST_REFUSED.test(error)
                ? `the host policy refuses this server's address: list its host in the project's allowed_hosts to reach it on purpose (squadron docs security)`
                : 'check the command or url, or validate with --offline to skip this check',
            ),
      );
      continue;
    }
    const result = listing.tools;
    const taskOnlyNamed = new Set<string>();
    for (const ref of refs) {
      if (ref.server !== server.name || ref.tool === 'all' || ref.tool === RESOURCES_TOOL || result.includes(ref.tool)) continue;
      if (listing.taskOnly.includes(ref.tool)) {
        taskOnlyNamed.add(ref.tool);
        diags.push(diagnosticAt(ref.range, 'warning', 'MCP003', `mcp.${server.name}.${ref.tool} only runs as an MCP task (execution.taskSupport = "required"), which Squadron does not support: it is left out`));
        continue;
      }
      const hint = suggestionHint(ref.tool, result, (c) => `mcp.${server.name}.${c}`);
      const message = `mcp server "${server.name}" has no tool "${ref.tool}"${cached ? ' (in its cached tool list)' : ''}`;
      diags.push(diagnosticAt(ref.range, severity, 'MCP001', message, hint));
    }
    if (listing.prompts !== undefined) diags.push(...unknownPrompts(server.name, listing.prompts, promptRefs, severity));
    const viaAll = refs.some((r) => r.server === server.name && r.tool === 'all');
    const leftOut = listing.taskOnly.filter((t) => !taskOnlyNamed.has(t));
    if (viaAll && leftOut.length > 0) {
      const names = leftOut.map((t) => JSON.stringify(t)).join(', ');
      const message = `mcp server "${server.name}" offers ${leftOut.length === 1 ? 'a tool' : `${leftOut.length} tools`} that only run${leftOut.length === 1 ? 's' : ''} as MCP tasks (execution.taskSupport = "required"), which Squadron does not support: ${names} ${leftOut.length === 1 ? 'is' : 'are'} left out of mcp.${server.name}.all`;
      diags.push(diagnosticAt(rangeAtLocation(server.location, 'mcp'.length), 'warning', 'MCP003', message));
    }
  }
  // With the servers' tool lists, `mcp.<server>.all` expands: check tool API names again.
  for (const d of toolNameCollisions(graph, (server) => lists.get(server), true)) diags.push(cached ? { ...d, severity: 'warning' } : d);
  return diags;
}

function unknownPrompts(server: string, prompts: readonly string[], refs: readonly McpPromptReference[], severity: 'error' | 'warning'): Diagnostic[] {
  const diags: Diagnostic[] = [];
  for (const ref of refs) {
    if (ref.server !== server || prompts.includes(ref.prompt)) continue;
    const hint = prompts.length === 0 ? `the server offers no prompts` : suggestionHint(ref.prompt, prompts, (c) => `mcp.${server}.prompts.${c}`);
    diags.push(diagnosticAt(ref.range, severity, 'MCP004', `mcp server "${server}" has no prompt "${ref.prompt}"`, hint));
  }
  return diags;
}
