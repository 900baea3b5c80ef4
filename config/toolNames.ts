// The API name of a tool: the name a model sees and calls (`builtins.http.get` → `builtins_http_get`,
// `mcp.fs.read-file` → `mcp_fs_read-file`). One rule for the loader (which reports two tools of one
// agent that would share a name), the runtime's tool registry, `plan` and the skill catalog.

import { createRequire } from 'node:module';

/** node:crypto, loaded by the first over-long name: loading it cost every `validate` ~15 ms of CPU. */
let crypto: typeof import('node:crypto') | undefined;

/** Longest tool name every provider accepts (OpenAI's limit; Anthropic allows 128). */
const MAX_API_NAME = 64;

/** Builtins and custom tools: the ref with dots replaced by underscores. */
export function apiNameOf(ref: string): string {
  return ref.replace(/\./g, '_');
}

/**
 * `mcp_<server>_<tool>`, with characters the model APIs reject (`^[a-zA-Z0-9_-]+$`) replaced by `_`.
 * An over-long name is cut and suffixed with a hash of the full ref so it stays unique and stable.
 */
export function mcpApiName(server: string, tool: string): string {
  const ref = `mcp.${server}.${tool}`;
  const name = ref.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (name.length <= MAX_API_NAME) return name;
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const hash = crypto.createHash('sha256').update(ref).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_API_NAME - 9)}_${hash}`;
}

/** The API name of any tool ref (`mcp.<server>.<tool>` by the MCP rule, the others by dots). */
export function toolApiName(ref: string): string {
  const mcp = /^mcp\.([^.]+)\.(.+)$/.exec(ref);
  return mcp ? mcpApiName(mcp[1]!, mcp[2]!) : apiNameOf(ref);
}
