// Which tool refs an authorization covers: a ref covers itself, and `mcp.<server>.all` covers every
// `mcp.<server>.<tool>` (the server's tools are only known once it is connected). One rule for the
// loader (always_load), the runtime (what an agent may call) and the CLI (`--tool` flags);
// dependency-free, so the CLI can check flags without loading the runtime.

/**
 * `mcp.<server>.resources` is the tool that lists and reads the server's resources (a tool of the
 * server named "resources" is reachable only through `.all`, as one named "all" is not at all).
 */
export const RESOURCES_TOOL = 'resources';

/** `mcp.<server>.prompts` (in `skills`) gives the server's prompts as skills; `.prompts.<name>` one of them. */
export const PROMPTS_REF = 'prompts';

/** `{server, prompt}` of a skill name that names MCP prompts (`prompt` absent: all of the server's). */
export function mcpPromptRef(name: string): { server: string; prompt?: string } | undefined {
  const m = /^mcp\.([^.]+)\.prompts(?:\.(.+))?$/.exec(name);
  if (!m) return undefined;
  return m[2] === undefined ? { server: m[1]! } : { server: m[1]!, prompt: m[2] };
}

export function isMcpAll(ref: string): boolean {
  // A plugin's `.all` is the same kind of thing: its tools are only known once it is started.
  return (ref.startsWith('mcp.') || ref.startsWith('plugins.')) && ref.endsWith('.all') && ref.split('.').length === 3;
}

/** Whether `ref` names `all` or a tool of the server whose `.all` is `mcpAll`. */
export function isToolOfMcpAll(mcpAll: string, ref: string): boolean {
  return isMcpAll(mcpAll) && ref !== mcpAll && ref.startsWith(mcpAll.slice(0, -'all'.length)) && ref.length > mcpAll.length - 'all'.length;
}

export function coversToolRef(authorized: readonly string[], ref: string): boolean {
  return authorized.some((a) => a === ref || isToolOfMcpAll(a, ref));
}
