// The operations of the door whose modules load heavier parts (the store's reads, the vault's crypto,
// the MCP client) as the package's entry exports them: each loads its module when called, so
// importing the package stays light.

/** A stored run read whole (tasks, items, sessions, transcripts, usage, budgets): `squadron inspect`. */
export async function inspectRun(...args: Parameters<typeof import('./inspect.js').inspectRun>): ReturnType<typeof import('./inspect.js').inspectRun> {
  return (await import('./inspect.js')).inspectRun(...args);
}

/** A stored tool result whole, by its `res_…` handle: `squadron inspect --result`. */
export async function inspectStoredResult(...args: Parameters<typeof import('./inspect.js').inspectStoredResult>): ReturnType<typeof import('./inspect.js').inspectStoredResult> {
  return (await import('./inspect.js')).inspectStoredResult(...args);
}

/** The values of a project's vault ({} when it has none): `squadron vars list|get`. */
export async function readVaultValues(...args: Parameters<typeof import('./vault.js').readVaultValues>): Promise<Record<string, string>> {
  return (await import('./vault.js')).readVaultValues(...args);
}

/** Replaces a project's vault values, making its key when there is none: `squadron vars set|delete`. */
export async function writeVaultValues(...args: Parameters<typeof import('./vault.js').writeVaultValues>): Promise<void> {
  (await import('./vault.js')).writeVaultValues(...args);
}

/** Logs in to an MCP server over HTTP that asks for OAuth: `squadron mcp login`. */
export async function mcpLogin(...args: Parameters<typeof import('./mcpLogin.js').mcpLogin>): ReturnType<typeof import('./mcpLogin.js').mcpLogin> {
  return (await import('./mcpLogin.js')).mcpLogin(...args);
}

/** Forgets an MCP server's stored tokens: `squadron mcp logout`. */
export async function mcpLogout(...args: Parameters<typeof import('./mcpLogin.js').mcpLogout>): ReturnType<typeof import('./mcpLogin.js').mcpLogout> {
  return (await import('./mcpLogin.js')).mcpLogout(...args);
}

/** Each MCP server of a project and whether a login is held for it: `squadron mcp status`. */
export async function mcpLoginStatus(...args: Parameters<typeof import('./mcpLogin.js').mcpLoginStatus>): ReturnType<typeof import('./mcpLogin.js').mcpLoginStatus> {
  return (await import('./mcpLogin.js')).mcpLoginStatus(...args);
}
