#!/usr/bin/env node
// A stdio MCP server whose tools return large results, for the tests and the bench of stored results
// (docs/concepts/context.md): `node test/support/mcpBigServer.mjs`. Every result is generated
// deterministically, so a test can predict any item or line. BIG_SECRET (from the config's env) is
// written into `secret_text`'s result.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { BIG_PNG_BASE64, bigJson, bigText, secretText } from './bigResults.mjs';

const server = new McpServer({ name: 'squadron-big', version: '1.0.0' });

server.registerTool('big_json', { description: 'A 1 MB JSON document (structured content only).', annotations: { readOnlyHint: true } }, async () => ({
  content: [],
  structuredContent: bigJson(),
}));

server.registerTool('big_text', { description: 'A 1 MB log as text.', annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: bigText() }],
}));

server.registerTool('secret_text', { description: 'A large text holding the secret.', annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: secretText(process.env.BIG_SECRET ?? '') }],
}));

server.registerTool('many_images', { description: 'Twelve images and a caption.', annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: 'twelve frames' }, ...Array.from({ length: 12 }, () => ({ type: 'image', data: BIG_PNG_BASE64, mimeType: 'image/png' }))],
}));

await server.connect(new StdioServerTransport());
