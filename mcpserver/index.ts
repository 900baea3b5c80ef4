// Missions as tools for other agents: the MCP server (stdio and Streamable HTTP) and A2A. Depends on
// api/ and core/ only; `squadron serve` mounts it at /mcp, `squadron mcp serve` runs it over stdio.

export type { AgentHost, RunDriver } from './host.js';
export { McpHttpEndpoint } from './http.js';
export { serveStdio } from './stdio.js';
export { createMcpServer } from './mcpServer.js';
export { A2aEndpoint } from './a2a.js';
