// Types for mcpTestTools.mjs (plain JavaScript so it runs without a TypeScript build).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export declare const TEST_PNG_BASE64: string;
export declare function createTestMcpServer(options: { name?: string; appendFile?: string; extraTools?: string[]; asking?: boolean; sampling?: boolean; listChanging?: boolean; tracing?: boolean; onCrash: () => void }): McpServer;
