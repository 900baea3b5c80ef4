// Stage 3: everything tools come from — `mcp` servers, custom `tool` blocks, then `toolset` groups
// (which may name builtins, custom tools and MCP tools, but never another toolset).

import { statSync } from 'node:fs';
import path from 'node:path';

import type { Block } from '../hcl/ast.js';
import type { Range } from '../hcl/diagnostic.js';
import { readDuration } from '../duration.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { CustomTool, McpServer, McpTransport, Toolset } from '../graph.js';
import { resolveModelRef, resolveToolList } from '../references.js';
import { blockHeader, decodeBody, locationOf, type BlockSchema, type DecodedBody } from '../schema.js';
import { loadNamedBlocks } from './namedBlocks.js';
import { scopeFor, type LoadContext, type Scope } from '../scope.js';
import { checkHttpUrl, readBool, readString, readText, readStringList, readStringMap, unsetUseCounts, unsetVariablesSince } from '../values.js';
import { loadCustomTools } from './customTools.js';

import { loadSourceTransport, MCP_SOURCE_ATTRIBUTES, warnClientCredentials } from './mcpSource.js';

const MCP_SCHEMA: BlockSchema = {
  attributes: { description: {}, command: {}, args: {}, env: {}, url: {}, headers: {}, roots: {}, timeout: {}, max_timeout: {}, sampling: {}, sampling_model: {}, ...MCP_SOURCE_ATTRIBUTES },
};
/** The `timeout` of an mcp block without one (also the MCP SDK's default). */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/** The `max_timeout` of an mcp block without one: how long progress may keep one call alive. */
export const DEFAULT_MCP_MAX_TIMEOUT_MS = 600_000;
const TOOLSET_SCHEMA: BlockSchema = { attributes: { description: {}, tools: { required: true }, approval: {} } };

export interface ToolStageResult {
  mcpServers: McpServer[];
  customTools: CustomTool[];
  toolsets: Toolset[];
}

export function loadToolStage(mcpBlocks: readonly Block[], toolBlocks: readonly Block[], toolsetBlocks: readonly Block[], ctx: LoadContext): ToolStageResult {
  const mcpServers = loadMcpServers(mcpBlocks, ctx);
  const customTools = loadCustomTools(toolBlocks, ctx);
  const toolsets = loadToolsets(toolsetBlocks, ctx);
  return { mcpServers, customTools, toolsets };
}

function loadMcpServers(blocks: readonly Block[], ctx: LoadContext): McpServer[] {
  const servers = loadNamedBlocks(
    blocks,
    'mcp server',
    ctx,
    (block, name): McpServer | undefined => {
      const uses = unsetUseCounts(ctx);
      const errors = ctx.diags.filter((d) => d.severity === 'error').length;
      const { transport, description, settings } = loadMcp(block, name, ctx);
      const described = { ...(description !== undefined ? { description } : {}), ...settings };
      if (transport !== undefined) return { name, transport, location: locationOf(block), ...described };
      // validate without a variable's value (a token in env or headers, a url): the server is kept,
      // so references to its tools still resolve and the summary shows it, but marked unresolved.
      const needsVariables = unsetVariablesSince(ctx, uses);
      if (needsVariables.length === 0 || ctx.diags.filter((d) => d.severity === 'error').length > errors) return undefined;
      const incomplete: McpTransport = block.body.attributes.some((a) => a.name === 'command')
        ? { kind: 'stdio', command: '', args: [], env: {} }
        : { kind: 'http', url: '', headers: {} };
      return { name, transport: incomplete, location: locationOf(block), needsVariables, ...described };
    },
    { namespace: 'mcp' },
  );
  for (const s of servers) ctx.symbols.mcp.set(s.name, s);
  return servers;
}

type McpSettings = Pick<McpServer, 'roots' | 'timeoutMs' | 'maxTimeoutMs' | 'sampling' | 'samplingModel'>;

function loadMcp(block: Block, name: string, ctx: LoadContext): { transport?: McpTransport | undefined; description?: string | undefined; settings: McpSettings } {
  const scope = scopeFor(ctx, 'mcp', 'an mcp block');
  const body = decodeBody(block.body, MCP_SCHEMA, { what: `mcp "${name}"`, header: blockHeader(block) }, ctx.diags);
  return {
    transport: loadTransport(body, block, name, scope, ctx),
    description: readText(body.attrs.get('description'), scope, ctx.diags),
    settings: loadMcpSettings(body, scope, ctx),
  };
}

function loadMcpSettings(body: DecodedBody, scope: Scope, ctx: LoadContext): McpSettings {
  const settings: McpSettings = {};
  const rootsAttr = body.attrs.get('roots');
  const roots = rootsAttr === undefined ? undefined : readStringList(rootsAttr, scope, ctx.diags);
  if (roots !== undefined) settings.roots = roots.flatMap((r) => checkedRoot(r, rootsAttr!.expr.range, ctx));
  const timeoutMs = readDuration(body.attrs.get('timeout'), scope, ctx.diags);
  const maxAttr = body.attrs.get('max_timeout');
  const maxTimeoutMs = readDuration(maxAttr, scope, ctx.diags);
  if (timeoutMs !== undefined) settings.timeoutMs = timeoutMs;
  if (maxTimeoutMs !== undefined) {
    if (maxTimeoutMs < (timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS)) {
      ctx.diags.push(diagnosticAt(maxAttr!.expr.range, 'error', 'SCH013', 'max_timeout must not be shorter than timeout'));
    } else settings.maxTimeoutMs = maxTimeoutMs;
  }
  if (readBool(body.attrs.get('sampling'), scope, ctx.diags) === true) settings.sampling = true;
  const modelAttr = body.attrs.get('sampling_model');
  if (modelAttr !== undefined) {
    const model = resolveModelRef(modelAttr, scope, ctx.diags);
    if (settings.sampling !== true) {
      ctx.diags.push(diagnosticAt(modelAttr.nameRange, 'error', 'SCH012', 'sampling_model is only valid with sampling = true', 'sampling is off unless the block says sampling = true'));
    } else if (model !== undefined) settings.samplingModel = model;
  }
  return settings;
}

/** A root is a folder that exists when the config is loaded, relative to the project root unless absolute. */
function checkedRoot(root: string, range: Range, ctx: LoadContext): string[] {
  const full = path.resolve(ctx.projectRoot, root);
  let isDir: boolean;
  try {
    isDir = statSync(full).isDirectory();
  } catch {
    ctx.diags.push(diagnosticAt(range, 'error', 'FIL001', `mcp root ${JSON.stringify(root)} does not exist (${full})`, 'roots are folders, relative to the project root'));
    return [];
  }
  if (!isDir) {
    ctx.diags.push(diagnosticAt(range, 'error', 'FIL001', `mcp root ${JSON.stringify(root)} is not a folder (${full})`, 'roots are folders, relative to the project root'));
    return [];
  }
  return [full];
}

function loadTransport(body: DecodedBody, block: Block, name: string, scope: Scope, ctx: LoadContext): McpTransport | undefined {
  const where = `mcp "${name}"`;
  const a = (n: string) => body.attrs.get(n);
  warnClientCredentials(body, where, scope, ctx);
  if (a('source') !== undefined) return loadSourceTransport(body, where, scope, ctx);
  for (const attrName of ['version', 'entry']) {
    const attr = a(attrName);
    if (attr !== undefined) ctx.diags.push(diagnosticAt(attr.nameRange, 'error', 'SCH012', `${attrName} is only valid with source`, 'source = "npm:<package>" names what to install'));
  }
  const commandAttr = a('command');
  const urlAttr = a('url');
  if (commandAttr !== undefined && urlAttr !== undefined) {
    ctx.diags.push(diagnosticAt(urlAttr.nameRange, 'error', 'SCH012', `${where} has both command and url`, 'use command (a local process over stdio) or url (a remote server over HTTP), not both'));
    return undefined;
  }
  if (commandAttr === undefined && urlAttr === undefined) {
    ctx.diags.push(diagnosticAt(blockHeader(block), 'error', 'SCH003', `${where} needs either command (stdio) or url (HTTP)`));
    return undefined;
  }
  let ok = true;
  const misplaced = (attrName: string, allowedWith: string): void => {
    const attr = a(attrName);
    if (attr === undefined) return;
    ok = false;
    ctx.diags.push(diagnosticAt(attr.nameRange, 'error', 'SCH012', `${attrName} is only valid with ${allowedWith}`, `${where} uses ${commandAttr !== undefined ? 'command' : 'url'}`));
  };
  if (commandAttr !== undefined) {
    misplaced('headers', 'url');
    const command = readString(commandAttr, scope, ctx.diags);
    const args = a('args') === undefined ? [] : readStringList(a('args'), scope, ctx.diags);
    const env = a('env') === undefined ? {} : readStringMap(a('env'), scope, ctx.diags);
    if (command === '' ) {
      ctx.diags.push(diagnosticAt(commandAttr.expr.range, 'error', 'SCH010', 'command must not be empty'));
      return undefined;
    }
    if (!ok || command === undefined || args === undefined || env === undefined) return undefined;
    return { kind: 'stdio', command, args, env };
  }
  misplaced('args', 'command');
  misplaced('env', 'command');
  const url = readString(urlAttr, scope, ctx.diags);
  const headers = a('headers') === undefined ? {} : readStringMap(a('headers'), scope, ctx.diags);
  if (url !== undefined && !checkHttpUrl(url, urlAttr!.expr.range, ctx.diags)) return undefined;
  if (!ok || url === undefined || headers === undefined) return undefined;
  return { kind: 'http', url, headers };
}

function loadToolsets(blocks: readonly Block[], ctx: LoadContext): Toolset[] {
  const toolsets = loadNamedBlocks(blocks, 'toolset', ctx, (block, name) => loadToolset(block, name, ctx), { namespace: 'toolsets' });
  for (const t of toolsets) ctx.symbols.toolsets.set(t.name, t);
  return toolsets;
}

function loadToolset(block: Block, name: string, ctx: LoadContext): Toolset | undefined {
  const where = `toolset "${name}"`;
  const scope = scopeFor(ctx, 'toolset', 'a toolset block', { toolset: name });
  const body = decodeBody(block.body, TOOLSET_SCHEMA, { what: where, header: blockHeader(block) }, ctx.diags);
  const description = readText(body.attrs.get('description'), scope, ctx.diags);
  const toolsAttr = body.attrs.get('tools');
  const tools = toolsAttr === undefined ? undefined : resolveToolList(toolsAttr, `toolset:${name}`, scope, ctx.diags);
  const approval = readBool(body.attrs.get('approval'), scope, ctx.diags) === true;
  if (tools === undefined) return undefined;
  // Every tool it brings carries the toolset as its reason for approval (a tool's own block may already give one).
  const entries = approval ? tools.map((t) => ({ ...t, approval: t.approval ?? (`toolset:${name}` as const) })) : tools;
  const toolset: Toolset = { name, tools: ctx.toolLists.intern(entries), location: locationOf(block) };
  if (approval) toolset.approval = true;
  if (description !== undefined) toolset.description = description;
  return toolset;
}
