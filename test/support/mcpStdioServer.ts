// Typed helpers for the stdio test MCP server (mcpStdioServer.mjs): its path, and a graph `McpServer`
// entry that starts it with the current node binary, for unit and end-to-end tests alike.

import { fileURLToPath } from 'node:url';

import type { McpServer } from '../../config/graph.js';

export const MCP_STDIO_SERVER_PATH = fileURLToPath(new URL('./mcpStdioServer.mjs', import.meta.url));

export function stdioTestServer(name: string, env: Record<string, string> = {}): McpServer {
  return {
    name,
    transport: { kind: 'stdio', command: process.execPath, args: [MCP_STDIO_SERVER_PATH], env },
    location: { file: 'test.hcl', line: 1, column: 1 },
  };
}

export function httpTestServer(name: string, url: string, headers: Record<string, string> = {}): McpServer {
  return { name, transport: { kind: 'http', url, headers }, location: { file: 'test.hcl', line: 1, column: 1 } };
}
