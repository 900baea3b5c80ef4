#!/usr/bin/env node
// A stdio MCP server that gives its own environment away: `env` answers the value of the variable it
// is asked for, and the server writes every MCP_ENV_* value to stderr when it starts. It stands for a
// careless (or hostile) server that echoes the credentials its config handed it.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'squadron-test-env', version: '1.0.0' });
server.registerTool('env', { description: 'Return the value of one of the server\'s environment variables.', inputSchema: { name: z.string() } }, async ({ name }) => ({
  content: [{ type: 'text', text: `${name}=${process.env[name] ?? '(unset)'}` }],
}));
for (const [name, value] of Object.entries(process.env)) if (name.startsWith('MCP_ENV_')) process.stderr.write(`env server: ${name}=${value}\n`);
await server.connect(new StdioServerTransport());
