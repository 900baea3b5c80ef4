// Types for mcpHttpServer.mjs (plain JavaScript so it runs without a TypeScript build).

export interface McpHttpTestServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** Sessions initialized and crashes simulated so far. */
  stats: { initializations: number; crashes: number };
  sessionCount(): number;
  /** Forget every session, as a restarted server would (connections stay open). */
  dropSessions(): void;
  close(): Promise<void>;
}

export declare function startMcpHttpServer(options?: {
  port?: number;
  appendFile?: string;
  /** Headers every request must carry (to test configured transport headers). */
  requiredHeaders?: Record<string, string>;
  exitOnCrash?: boolean;
  /** Sees every request first; returns true when it answered it (e.g. OAuth endpoints, a 401). */
  handle?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, url: URL) => boolean | Promise<boolean>;
}): Promise<McpHttpTestServer>;
