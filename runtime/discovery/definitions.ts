// The model-facing interface of discovery: the two tool definitions (names, short descriptions, JSON
// schemas), the zod validators for their inputs, and the on/off policy. Handlers live in
// searchTools.ts and toolSchema.ts.

import { z } from 'zod';
import type { ToolDefinition } from '../providers/types.js';

export const SEARCH_TOOLS = 'search_tools';
export const GET_TOOL_SCHEMA = 'get_tool_schema';
/** Results per search_tools page. */
export const PAGE_SIZE = 8;

export function discoveryToolDefinitions(): ToolDefinition[] {
  return [
    {
      name: SEARCH_TOOLS,
      description:
        `Find the tools you hold by describing an action in a few words, or list one group's tools. ` +
        `Returns up to ${PAGE_SIZE} exact tool names per page, each with a one-line description and its group.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'The action, e.g. "refund a payment" or "list open pull requests".' },
          group: { type: 'string', description: 'Only this group; without a query, lists all of its tools.' },
          page: { type: 'integer', minimum: 1, description: 'Page number from next_page (default 1).' },
        },
        additionalProperties: false,
      },
    },
    {
      name: GET_TOOL_SCHEMA,
      description:
        'Load a tool by its exact name (from search_tools): returns its description and input schema, and makes it callable from your next step.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'Exact tool name.' } },
        required: ['name'],
        additionalProperties: false,
      },
    },
  ];
}

export const searchToolsInput = z.object({
  query: z.string().max(1000).optional(),
  group: z.string().max(200).optional(),
  page: z.number().int().min(1).optional(),
});
export type SearchToolsInput = z.infer<typeof searchToolsInput>;

export const getToolSchemaInput = z.object({ name: z.string().min(1).max(300) });

/** One line per zod issue, naming the field: what a model needs to correct its call. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'input'}: ${i.message}`).join('; ');
}

export interface DiscoveryPolicy {
  discovery: 'auto' | 'on' | 'off';
  threshold: number;
}

/** Whether a worker holding `toolCount` tools gets discovery instead of every schema up front. */
export function shouldUseDiscovery(toolCount: number, policy: DiscoveryPolicy): boolean {
  if (policy.discovery === 'on') return true;
  if (policy.discovery === 'off') return false;
  return toolCount > policy.threshold;
}
