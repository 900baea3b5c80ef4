// `squadron mcp serve`: one MCP session over stdin/stdout for a desktop client that starts the
// process itself. Resolves when the client closes the stream.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { AgentHost } from './host.js';
import { createMcpServer } from './mcpServer.js';

export async function serveStdio(host: AgentHost, version: string, io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }): Promise<void> {
  const transport = new StdioServerTransport(io.stdin as never, io.stdout as never);
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    io.stdin.once('end', () => done());
  });
  await createMcpServer(host, version).connect(transport);
  await closed;
}
