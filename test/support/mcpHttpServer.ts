// Typed entry for tests: the Streamable HTTP test MCP server lives in mcpHttpServer.mjs so that it
// also runs as a plain program (`node test/support/mcpHttpServer.mjs`).
export { startMcpHttpServer, type McpHttpTestServer } from './mcpHttpServer.mjs';
