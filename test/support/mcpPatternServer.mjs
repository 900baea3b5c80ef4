#!/usr/bin/env node
// A stdio MCP server whose one tool, `lookup`, declares a hostile JSON Schema: its `code` property
// has the pattern ^(a+)+$, which a backtracking RegExp needs exponential time to reject on "aaa…a!".
// A server is untrusted input; the client must check such a pattern in bounded time. The tool
// itself only echoes its input back (it is never reached with an input that fails the pattern).

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'squadron-test-pattern', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'lookup',
      description: 'Look a code up.',
      inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, required: ['code'] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => ({ content: [{ type: 'text', text: `looked up ${JSON.stringify(req.params.arguments)}` }] }));
await server.connect(new StdioServerTransport());
