// `mcp.<server>.resources`: one tool that lists a server's resources and resource templates and
// reads one (by URI, or by a template and its variables). It is authorized like any tool of the
// server — named on its own, it is not part of `mcp.<server>.all` — and what it reads reaches the
// model through the same conversion as a tool result's embedded resources.

import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

import type { McpServer } from '../../../config/graph.js';
import { mcpApiName } from '../../../config/toolNames.js';
import { RESOURCES_TOOL } from '../../../config/toolRefs.js';
import type { JsonSchema } from '../../providers/types.js';
import { invalidInputResult, validateToolInput } from '../inputValidation.js';
import { textResult, type ToolContext, type ToolResult, type ToolSpec } from '../types.js';
import type { McpRequests } from './requests.js';
import { toToolResult } from './results.js';


const INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['list', 'read'], description: 'list: the resources and resource templates; read: one resource' },
    uri: { type: 'string', description: 'read: the URI of a listed resource (or of a resource link in a tool result)' },
    template: { type: 'string', description: 'read: a listed URI template, instead of uri' },
    arguments: { type: 'object', additionalProperties: { type: 'string' }, description: "read: the template's variables" },
    cursor: { type: 'string', description: 'list: the cursor of the next page, from the previous list' },
  },
  required: ['action'],
  additionalProperties: false,
};

interface ResourcesInput {
  action: 'list' | 'read';
  uri?: string;
  template?: string;
  arguments?: Record<string, string>;
  cursor?: string;
}

export function mcpResourcesSpec(server: McpServer, connections: McpRequests): ToolSpec {
  const apiName = mcpApiName(server.name, RESOURCES_TOOL);
  return {
    ref: `mcp.${server.name}.${RESOURCES_TOOL}`,
    apiName,
    description: `List the resources of MCP server "${server.name}" (action "list") and read one (action "read", by uri, or by template and arguments).`,
    inputSchema: INPUT_SCHEMA,
    group: `mcp.${server.name}`,
    source: 'mcp',
    idempotent: true,
    async execute(input: unknown, ctx: ToolContext): Promise<ToolResult> {
      const checked = validateToolInput(INPUT_SCHEMA, input ?? {});
      if (!checked.ok) return invalidInputResult(apiName, checked.errors);
      const args = checked.value as ResourcesInput;
      return args.action === 'list' ? list(server, connections, args.cursor, ctx.signal) : read(server, connections, args, ctx.signal);
    },
  };
}

async function list(server: McpServer, connections: McpRequests, cursor: string | undefined, signal: AbortSignal): Promise<ToolResult> {
  const listed = await connections.request(
    server,
    'listing its resources',
    async (client, options) => {
      if (!client.getServerCapabilities()?.resources) return undefined;
      const resources = await client.listResources(cursor ? { cursor } : {}, options);
      // Templates are few and unpaged in practice: listed with the first page only.
      const templates = cursor ? { resourceTemplates: [] } : await client.listResourceTemplates({}, options);
      return { resources: resources.resources, next: resources.nextCursor, templates: templates.resourceTemplates };
    },
    signal,
  );
  if (!listed.ok) return listed.error;
  const found = listed.value;
  if (found === undefined) return textResult(`MCP server "${server.name}" offers no resources`, true);
  const lines = [
    ...(found.resources.length === 0 ? ['(no resources)'] : found.resources.map(resourceLine)),
    ...(found.templates.length > 0 ? ['', 'templates (read with template and arguments):', ...found.templates.map(templateLine)] : []),
    ...(found.next ? ['', `more: list again with cursor ${JSON.stringify(found.next)}`] : []),
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: false };
}

async function read(server: McpServer, connections: McpRequests, args: ResourcesInput, signal: AbortSignal): Promise<ToolResult> {
  let uri = args.uri;
  if (uri === undefined && args.template !== undefined) {
    const template = new UriTemplate(args.template);
    const missing = template.variableNames.filter((n) => args.arguments?.[n] === undefined);
    if (missing.length > 0) return textResult(`the template ${args.template} needs ${missing.map((m) => `arguments.${m}`).join(', ')}`, true);
    uri = template.expand(args.arguments ?? {});
  }
  if (uri === undefined) return textResult('read needs uri, or template and arguments', true);
  const target = uri;
  const read = await connections.request(server, `reading ${target}`, (client, options) => client.readResource({ uri: target }, options), signal);
  if (!read.ok) return read.error;
  const { contents } = read.value;
  if (contents.length === 0) return textResult(`${target} is empty`);
  return toToolResult({ content: contents.map((resource) => ({ type: 'resource' as const, resource })) });
}

function resourceLine(r: Resource): string {
  const mime = r.mimeType ? ` (${r.mimeType})` : '';
  const about = r.description ? `: ${oneLine(r.description)}` : '';
  return `- ${r.title ?? r.name} <${r.uri}>${mime}${about}`;
}

function templateLine(t: ResourceTemplate): string {
  const names = new UriTemplate(t.uriTemplate).variableNames;
  const mime = t.mimeType ? ` (${t.mimeType})` : '';
  const about = t.description ? `: ${oneLine(t.description)}` : '';
  return `- ${t.title ?? t.name} ${t.uriTemplate} — arguments: ${names.join(', ') || 'none'}${mime}${about}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 200 ? flat : `${flat.slice(0, 199)}…`;
}
