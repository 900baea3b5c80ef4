// The path of the stdio MCP server with large results (mcpBigServer.mjs), for end-to-end tests.

import { fileURLToPath } from 'node:url';

export const MCP_BIG_SERVER_PATH = fileURLToPath(new URL('./mcpBigServer.mjs', import.meta.url));
