// Tool lists of MCP servers cached on disk, keyed by the sha256 of the server's canonical transport
// config, so `squadron validate` can check `mcp.<server>.<tool>` refs without starting servers each
// time (and offline). The cache file holds tool metadata only: never env values or headers.

import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { z } from 'zod';

import type { McpServer, McpTransport } from '../../../config/graph.js';
import { MCP_START_TIMEOUT_MS, McpConnections } from './connections.js';
import { listPromptNames } from './prompts.js';
import { McpToolInfoSchema, type McpToolInfo } from './toolInfo.js';
import { canonicalJson } from '../../../core/canonicalJson.js';
import { makePrivateDirs } from '../../../store/privateDirs.js';

export interface CachedListOptions {
  /** Never start the server: a cache miss is an error. */
  offline?: boolean;
  /** Ignore a cached list and ask the server (the cache is rewritten). */
  refresh?: boolean;
  /** Bound on connecting and listing (default MCP_START_TIMEOUT_MS each). */
  timeoutMs?: number;
  /** Working directory of stdio servers. */
  cwd?: string;
  /** Also list the server's prompt names when asking it (never cached: validate checks them online only). */
  prompts?: boolean;
  /**
   * The project's `allowed_hosts`: a remote server is asked under the host policy (hostGuard.ts),
   * as a run asks it. Default: none allowed (loopback, private, link-local refused).
   */
  allowedHosts?: readonly string[];
}

export interface CachedToolList {
  tools: McpToolInfo[];
  fromCache: boolean;
  /** Set when the server itself just answered (its list is current), whether or not the cache could be written. */
  fresh?: true;
  /** With `prompts`, when the server was asked and listed them (`[]`: it offers none). */
  prompts?: string[];
  /**
   * A problem worth a warning: the server could not be asked (offline miss, start failure; `tools`
   * then come from the cache when there is one) or the cache could not be written.
   */
  error?: string;
}

const CacheFile = z.object({
  version: z.literal(1),
  server: z.string(),
  listedAt: z.string(),
  tools: z.array(McpToolInfoSchema),
});

/** sha256 (hex) of the transport config with keys sorted, so equal configs share a cache entry. */
export function mcpConfigHash(transport: McpTransport): string {
  return createHash('sha256').update(canonicalJson(transport)).digest('hex');
}

export function mcpCachePath(cacheDir: string, server: McpServer): string {
  return path.join(cacheDir, `${mcpConfigHash(server.transport)}.json`);
}

export async function listToolsCached(server: McpServer, cacheDir: string, options: CachedListOptions = {}): Promise<CachedToolList> {
  const file = mcpCachePath(cacheDir, server);
  const cached = await readCache(file);
  if (cached && !options.refresh) return { tools: cached, fromCache: true };
  if (options.offline) {
    return { tools: cached ?? [], fromCache: cached !== undefined, error: `no cached tool list for MCP server "${server.name}" (run once without --offline to fill the cache)` };
  }

  const timeoutMs = options.timeoutMs ?? MCP_START_TIMEOUT_MS;
  const connections = new McpConnections({ connectTimeoutMs: timeoutMs, listTimeoutMs: timeoutMs, allowedHosts: options.allowedHosts ?? [], ...(options.cwd ? { cwd: options.cwd } : {}) });
  try {
    const tools = await connections.listToolInfos(server);
    const prompts = options.prompts ? await promptNames(server, connections) : undefined;
    const writeError = await writeCache(file, server.name, tools).then(
      () => undefined,
      (err: unknown) => `could not write the MCP tool cache ${file}: ${err instanceof Error ? err.message : String(err)}`,
    );
    const listed: CachedToolList = writeError ? { tools, fromCache: false, fresh: true, error: writeError } : { tools, fromCache: false, fresh: true };
    if (prompts) listed.prompts = prompts;
    return listed;
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    return { tools: cached ?? [], fromCache: cached !== undefined, error };
  } finally {
    await connections.closeAll();
  }
}

async function readCache(file: string): Promise<McpToolInfo[] | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = CacheFile.safeParse(JSON.parse(text));
    // A corrupt or foreign file is a miss, not an error: the server can always be asked again.
    return parsed.success ? parsed.data.tools.map(stripUndefined) : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(file: string, server: string, tools: McpToolInfo[]): Promise<void> {
  makePrivateDirs(path.dirname(file)); // .squadron/ and its mcp-tools/ are owner-only, like the rest of .squadron
  const body = { version: 1, server, listedAt: new Date().toISOString(), tools };
  // Write then rename, so a concurrent reader never sees half a file. The temporary name is
  // unguessable and created exclusively ('wx': O_EXCL never follows a link planted at the name).
  const tmp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, { encoding: 'utf8', flag: 'wx' });
  await rename(tmp, file);
}

function stripUndefined(t: z.infer<typeof CacheFile>['tools'][number]): McpToolInfo {
  const info: McpToolInfo = { name: t.name, description: t.description, inputSchema: t.inputSchema, idempotent: t.idempotent };
  if (t.title !== undefined) info.title = t.title;
  if (t.hints !== undefined) info.hints = t.hints;
  if (t.taskRequired !== undefined) info.taskRequired = t.taskRequired;
  return info;
}

/** A listing that failed leaves the prompt references unchecked rather than failing the tool list. */
async function promptNames(server: McpServer, connections: McpConnections): Promise<string[] | undefined> {
  const listed = await listPromptNames(server, connections);
  return listed.ok ? listed.names : undefined;
}
