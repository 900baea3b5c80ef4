#!/usr/bin/env node
// Squadron's test MCP server over Streamable HTTP (stateful sessions, JSON responses). Import
// `startMcpHttpServer()` in tests, or run `node test/support/mcpHttpServer.mjs [port]`, which prints
// the endpoint URL on stdout. In-process, `crash` drops every session and cuts every connection (the
// client sees the host vanish, then unknown sessions); run as a program, it exits the process.

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

import { createTestMcpServer } from './mcpTestTools.mjs';

/**
 * `handle` sees every request first and returns true when it answered it (an OAuth test server's
 * endpoints, or a 401 for a request without a valid token).
 * @param {{ port?: number, appendFile?: string, requiredHeaders?: Record<string, string>, exitOnCrash?: boolean, handle?: (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => boolean | Promise<boolean> }} [options]
 */
export async function startMcpHttpServer(options = {}) {
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const sessions = new Map();
  const stats = { initializations: 0, crashes: 0 };

  const crash = () => {
    stats.crashes++;
    if (options.exitOnCrash) process.exit(3);
    sessions.clear();
    // Let the tool handler's stack unwind, then drop every socket, the in-flight call's included.
    setImmediate(() => httpServer.closeAllConnections());
  };

  const httpServer = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      if (options.handle && (await options.handle(req, res, url))) return;
      if (url.pathname !== '/mcp') return reply(res, 404, 'not found');
      for (const [name, value] of Object.entries(options.requiredHeaders ?? {})) {
        if (req.headers[name.toLowerCase()] !== value) return reply(res, 401, `missing or wrong header ${name}`);
      }
      const body = req.method === 'POST' ? JSON.parse((await readBody(req)) || 'null') : undefined;
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId !== undefined) return reply(res, 404, 'unknown session');
        if (req.method !== 'POST' || !isInitializeRequest(body)) return reply(res, 400, 'no session');
        stats.initializations++;
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (id) => sessions.set(id, created),
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        await createTestMcpServer({ name: 'squadron-test-http', appendFile: options.appendFile, onCrash: crash }).connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent) reply(res, 500, String(err));
    }
  });

  await new Promise((resolve) => httpServer.listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined)));
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stats,
    sessionCount: () => sessions.size,
    /** Forget every session, as a restarted server would (connections stay open). */
    dropSessions: () => sessions.clear(),
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((t) => t.close().catch(() => undefined)));
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(() => resolve(undefined)));
    },
  };
}

function reply(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = process.argv[2] ? Number(process.argv[2]) : 0;
  const server = await startMcpHttpServer({ port, exitOnCrash: true, appendFile: process.env.MCP_TEST_APPEND_FILE });
  process.stdout.write(`${server.url}\n`);
}
