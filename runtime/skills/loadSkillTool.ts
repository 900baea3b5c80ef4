// The `load_skill {name}` tool as the model sees it: its definition, and the execution that checks
// the model's input, asks the SkillSession and words the result from prompts/skills.md. An unknown
// skill or a bad input is an error result the model can correct, never a throw.

import { dirname } from 'node:path';
import { z } from 'zod';
import type { McpPromptSkill, ToolRefWithProvenance } from '../../config/graph.js';
import type { ToolDefinition } from '../providers/types.js';
import { apiNameOf, textResult } from '../tools/types.js';
import type { ToolResult } from '../tools/types.js';
import type { SkillSession } from './session.js';
import { mcpApiName } from '../tools/mcp/toolInfo.js';
import { fillSkillPrompt } from './template.js';

export const LOAD_SKILL_TOOL_NAME = 'load_skill';

const LoadSkillInput = z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.string()).optional() }).strict();

/** Gets an MCP prompt skill's messages with the model's arguments (an error result when it cannot). */
export type PromptLoader = (prompt: McpPromptSkill, args: Readonly<Record<string, string>>) => Promise<ToolResult>;

/** `withArguments`: some skill is an MCP prompt, which takes arguments; otherwise the input is just the name. */
export function loadSkillToolDefinition(withArguments = false): ToolDefinition {
  const name = { type: 'string', description: fillSkillPrompt('tool_name_description') };
  const args = { type: 'object', additionalProperties: { type: 'string' }, description: fillSkillPrompt('tool_arguments_description') };
  return {
    name: LOAD_SKILL_TOOL_NAME,
    description: fillSkillPrompt('tool_description'),
    inputSchema: {
      type: 'object',
      properties: withArguments ? { name, arguments: args } : { name },
      required: ['name'],
      additionalProperties: false,
    },
  };
}

export interface LoadSkillOutcome {
  result: ToolResult;
  /**
   * Tools to add to the provider tool list from the next turn (empty on error or when the skill was
   * already loaded). `session.unlockedTools()` gives the whole list, e.g. after a resume.
   */
  newTools: ToolRefWithProvenance[];
}

/** Runs one `load_skill` call against `session`. The instructions travel in the tool result, so
 * they are persisted with the conversation and need no re-injection on resume. */
export async function executeLoadSkill(session: SkillSession, input: unknown, loadPrompt?: PromptLoader): Promise<LoadSkillOutcome> {
  const parsed = LoadSkillInput.safeParse(input);
  if (!parsed.success) {
    const problem = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
    return { result: textResult(fillSkillPrompt('invalid_input', { problem }), true), newTools: [] };
  }
  const { name, arguments: args } = parsed.data;
  const prompt = session.find(name)?.prompt;
  if (prompt) return { result: await executePrompt(session, name, prompt, args ?? {}, loadPrompt), newTools: [] };
  if (args !== undefined && Object.keys(args).length > 0) {
    return { result: textResult(fillSkillPrompt('no_arguments', { name }), true), newTools: [] };
  }
  const outcome = session.load(name);
  if (!outcome.ok) return { result: textResult(outcome.error, true), newTools: [] };
  const parts = [fillSkillPrompt('loaded', { name: outcome.skill.name, instructions: outcome.instructions })];
  if (outcome.tools.length > 0) {
    parts.push(fillSkillPrompt('loaded_tools', { tools: outcome.tools.map((t) => toolLabel(t.ref)).join(', ') }));
  }
  if (outcome.skill.origin.kind === 'folder') {
    parts.push(fillSkillPrompt('loaded_folder', { dir: dirname(outcome.skill.origin.file) }));
  }
  return { result: textResult(parts.join('\n\n')), newTools: outcome.alreadyLoaded ? [] : outcome.tools };
}

/** An MCP prompt is got anew on every load (its arguments may differ); only a successful get counts as loaded. */
async function executePrompt(session: SkillSession, name: string, prompt: McpPromptSkill, args: Readonly<Record<string, string>>, loadPrompt: PromptLoader | undefined): Promise<ToolResult> {
  if (!loadPrompt) return textResult(`skill ${name} cannot be loaded here: its MCP server is not available`, true);
  const result = await loadPrompt(prompt, args);
  if (result.isError) return result;
  session.load(name);
  return { ...result, content: [{ type: 'text', text: fillSkillPrompt('loaded_prompt', { name, server: prompt.server }) }, ...result.content] };
}

/**
 * The name the model will call, as the tool registry names it; `mcp.<server>.all` stands for every
 * tool of that server.
 */
function toolLabel(ref: string): string {
  if (ref.endsWith('.all')) return `${apiNameOf(ref.slice(0, -'.all'.length))}_*`;
  const mcp = /^mcp\.([^.]+)\.(.+)$/.exec(ref);
  return mcp ? mcpApiName(mcp[1]!, mcp[2]!) : apiNameOf(ref);
}
