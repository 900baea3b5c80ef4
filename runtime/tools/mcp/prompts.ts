// A server's prompts as skills: `mcp.<server>.prompts` (in `skills`) stands for every prompt the
// server lists, `mcp.<server>.prompts.<name>` for one. Each becomes a skill named
// `mcp.<server>.prompts.<prompt>` whose description names its arguments; loading it gets the prompt
// (`prompts/get`) with the model's arguments, and its messages reach the model as the tool result.

import type { Prompt, PromptMessage } from '@modelcontextprotocol/sdk/types.js';

import type { McpPromptSkill, McpServer, Skill } from '../../../config/graph.js';
import { textResult, type ToolResult } from '../types.js';
import type { McpRequests } from './requests.js';
import { toToolResult } from './results.js';

export type PromptSkillsOutcome = { ok: true; skills: Skill[] } | { ok: false; error: string };

/** The skill name of one prompt: the reference that names it on its own. */
export function promptSkillName(server: string, prompt: string): string {
  return `mcp.${server}.prompts.${prompt}`;
}

/** The skills `mcp.<server>.prompts` (prompt absent) or `mcp.<server>.prompts.<prompt>` stands for. */
export async function promptSkills(server: McpServer, connections: McpRequests, prompt?: string): Promise<PromptSkillsOutcome> {
  const listed = await listPrompts(server, connections);
  if (!listed.ok) return { ok: false, error: textOf(listed.error) };
  if (listed.value === undefined) return { ok: false, error: `MCP server "${server.name}" offers no prompts` };
  const prompts = prompt === undefined ? listed.value : listed.value.filter((p) => p.name === prompt);
  if (prompt !== undefined && prompts.length === 0) {
    const names = listed.value.map((p) => p.name);
    return { ok: false, error: `MCP server "${server.name}" has no prompt "${prompt}" (it has ${names.length > 0 ? names.join(', ') : 'none'})` };
  }
  return { ok: true, skills: prompts.map((p) => skillOf(server, p)) };
}

/** The names of the server's prompts (`[]` when it offers none), or why they could not be listed (validate). */
export async function listPromptNames(server: McpServer, connections: McpRequests): Promise<{ ok: true; names: string[] } | { ok: false; error: string }> {
  const listed = await listPrompts(server, connections);
  if (!listed.ok) return { ok: false, error: textOf(listed.error) };
  return { ok: true, names: (listed.value ?? []).map((p) => p.name) };
}

/** Every prompt the server lists, page by page; `undefined` when it declares no prompts capability. */
function listPrompts(server: McpServer, connections: McpRequests) {
  return connections.request(server, 'listing its prompts', async (client, options) => {
    if (!client.getServerCapabilities()?.prompts) return undefined;
    const prompts: Prompt[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : {}, options);
      prompts.push(...page.prompts);
      cursor = page.nextCursor;
    } while (cursor);
    return prompts;
  });
}

/** Gets the prompt with the model's arguments; a missing required argument or a server error is an error result. */
export async function loadPromptSkill(
  server: McpServer,
  connections: McpRequests,
  prompt: McpPromptSkill,
  args: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<ToolResult> {
  const missing = prompt.arguments.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  if (missing.length > 0) {
    return textResult(`skill ${promptSkillName(server.name, prompt.name)} needs the arguments ${missing.join(', ')}: load it with {"name": …, "arguments": {${missing.map((m) => `"${m}": "…"`).join(', ')}}}`, true);
  }
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    const takes = prompt.arguments.length > 0 ? `it takes ${prompt.arguments.map((a) => a.name).join(', ')}` : 'it takes none';
    return textResult(`skill ${promptSkillName(server.name, prompt.name)} has no argument ${unknown.join(', ')}: ${takes}`, true);
  }
  const got = await connections.request(server, `getting the prompt "${prompt.name}"`, (client, options) => client.getPrompt({ name: prompt.name, arguments: { ...args } }, options), signal);
  if (!got.ok) return got.error;
  return messagesResult(got.value.messages);
}

/** Each message as its role line and its content, converted like a tool result's content. */
function messagesResult(messages: readonly PromptMessage[]): ToolResult {
  const blocks = messages.flatMap((m) => [{ type: 'text' as const, text: `[${m.role}]` }, m.content]);
  return toToolResult({ content: blocks });
}

function skillOf(server: McpServer, prompt: Prompt): Skill {
  const args = (prompt.arguments ?? []).map((a) => {
    const out: McpPromptSkill['arguments'][number] = { name: a.name, required: a.required === true };
    if (a.description !== undefined) out.description = a.description;
    return out;
  });
  const about = prompt.description ?? prompt.title ?? `prompt "${prompt.name}" of MCP server "${server.name}"`;
  const argText = args.length === 0 ? '' : ` (arguments: ${args.map((a) => `${a.name}${a.required ? ', required' : ''}${a.description ? ` — ${a.description}` : ''}`).join('; ')})`;
  return {
    name: promptSkillName(server.name, prompt.name),
    description: `${about}${argText}`,
    instructions: '',
    tools: [],
    origin: { kind: 'mcp', file: server.location.file, line: server.location.line },
    prompt: { server: server.name, name: prompt.name, arguments: args },
  };
}

function textOf(result: ToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}
