#!/usr/bin/env node
// Squadron's test MCP server over stdio: `node test/support/mcpStdioServer.mjs`. Tools are in
// mcpTestTools.mjs; `crash` exits the process with code 3 to simulate a server dying mid-run.
// With MCP_TEST_PID_FILE set, the process writes its pid there on start (to check for orphans);
// MCP_TEST_EXTRA_TOOLS (comma-separated names) adds echo tools of those names; MCP_TEST_ASKING=1 adds
// `ask`, which sends the client an elicitation request; MCP_TEST_SAMPLING=1 adds `summarize`, which
// asks the client for a model completion; MCP_TEST_LIST_CHANGING=1 adds `grow`, which changes the
// server's tools mid-run; MCP_TEST_TRACING=1 adds `meta`, which answers its request's `_meta`.

import { writeFileSync } from 'node:fs';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { createTestMcpServer } from './mcpTestTools.mjs';

const server = createTestMcpServer({
  name: process.env.MCP_TEST_SERVER_NAME ?? 'squadron-test-stdio',
  extraTools: (process.env.MCP_TEST_EXTRA_TOOLS ?? '').split(',').filter((t) => t !== ''),
  asking: process.env.MCP_TEST_ASKING === '1',
  sampling: process.env.MCP_TEST_SAMPLING === '1',
  listChanging: process.env.MCP_TEST_LIST_CHANGING === '1',
  tracing: process.env.MCP_TEST_TRACING === '1',
  onCrash: () => {
    process.stderr.write('test server: crashing on purpose\n');
    process.exit(3);
  },
});
if (process.env.MCP_TEST_PID_FILE) writeFileSync(process.env.MCP_TEST_PID_FILE, String(process.pid));
await server.connect(new StdioServerTransport());
process.stderr.write(`test server: ready (pid ${process.pid})\n`);
