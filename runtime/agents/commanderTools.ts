// The commander's orchestration tools: call_agent, ask_agent, submit_output (only when the task
// declares an output schema) and task_complete. Inputs are checked with zod and every mistake goes
// back to the model as a clear error result; the tool definitions' JSON schemas come from the same
// zod schemas, so what the model is told and what is enforced cannot drift apart.

import { z } from 'zod';
import type { FieldSchema, Route } from '../../config/graph.js';
import type { ToolDefinition } from '../providers/types.js';
import type { ToolResult } from '../tools/types.js';
import type { CommanderState } from './commanderState.js';
import { validateOutput } from './outputValidation.js';
import type { SessionTool, ToolCall } from './toolbox.js';

export type AgentReply = { ok: true; agentId: string; answer: string } | { ok: false; agentId?: string; error: string };

/** The agents a commander may call, with their sessions (implemented by AgentPool). */
export interface AgentDirectory {
  names(): string[];
  call(name: string, text: string, mode: 'task' | 'response', callId: string): Promise<AgentReply>;
  ask(agentId: string, question: string, callId: string): Promise<AgentReply>;
}

export interface CommanderToolOptions {
  agents: AgentDirectory;
  state: CommanderState;
  output?: readonly FieldSchema[];
  routes: readonly Route[];
}

export function commanderTools(options: CommanderToolOptions): SessionTool[] {
  const tools = [callAgentTool(options.agents), askAgentTool(options.agents)];
  if (options.output) tools.push(submitOutputTool(options.output));
  tools.push(taskCompleteTool(options));
  return tools;
}

function callAgentTool(agents: AgentDirectory): SessionTool {
  const names = agents.names();
  const schema = z
    .object({
      name: z.string().describe(`The agent to call: ${names.join(', ')}.`),
      task: z.string().min(1).optional().describe('A new, self-contained piece of work for the agent.'),
      response: z.string().min(1).optional().describe("A reply continuing the agent's conversation (answer its question, correct it)."),
    })
    .strict();
  return internalTool(
    'call_agent',
    'Delegate work to an agent and wait for its answer. Give exactly one of `task` or `response`.',
    schema,
    'resume',
    async (input, call) => {
      if ((input.task === undefined) === (input.response === undefined)) {
        return errorResult('Give exactly one of `task` (new work) or `response` (continue the conversation).');
      }
      if (!names.includes(input.name)) {
        return errorResult(`There is no agent named "${input.name}" in this task. Available agents: ${names.join(', ')}.`);
      }
      const reply = input.task !== undefined
        ? await agents.call(input.name, input.task, 'task', call.callId)
        : await agents.call(input.name, input.response!, 'response', call.callId);
      return replyResult(reply);
    },
  );
}

function askAgentTool(agents: AgentDirectory): SessionTool {
  const schema = z
    .object({
      agent_id: z.string().describe('The agent_id returned by an earlier call_agent.'),
      question: z.string().min(1).describe('A follow-up question about the work the agent did.'),
    })
    .strict();
  return internalTool(
    'ask_agent',
    'Ask an agent that already worked on this task a follow-up question; it answers from its own conversation.',
    schema,
    'resume',
    async (input, call) => replyResult(await agents.ask(input.agent_id, input.question, call.callId)),
  );
}

function submitOutputTool(fields: readonly FieldSchema[]): SessionTool {
  const schema = z
    .object({ output: z.record(z.string(), z.unknown()).describe("An object with the task's output fields.") })
    .strict();
  const tool = internalTool(
    'submit_output',
    `Submit the task's structured output (fields: ${fields.map((f) => f.name).join(', ')}). A later valid submission replaces an earlier one.`,
    schema,
    'rerun',
    async (input) => {
      const problems = validateOutput(fields, input.output);
      if (problems.length > 0) {
        return errorResult(`The output does not match the task's output schema:\n- ${problems.join('\n- ')}\nFix these and call submit_output again.`);
      }
      return okResult({ status: 'ok' });
    },
  );
  tool.runsLast = true;
  return tool;
}

function taskCompleteTool(options: CommanderToolOptions): SessionTool {
  const routeTargets = options.routes.map((r) => r.target);
  const schema = z
    .object({
      summary: z.string().min(1).describe('What was achieved, stated completely: later tasks read only this.'),
      succeed: z.boolean().optional().describe('false when the objective could not be met (default true).'),
      reason: z.string().optional().describe('Why the task failed (required when succeed is false).'),
      route: z
        .string()
        .optional()
        .describe(routeTargets.length > 0 ? `Where the mission goes next: ${[...routeTargets, 'none'].join(', ')}.` : 'Not used: this task has no router.'),
    })
    .strict();
  const tool = internalTool(
    'task_complete',
    'Finish this task with a summary for later tasks. Call it last, once the work is done (or cannot be done).',
    schema,
    'rerun',
    async (input) => {
      if (options.state.completion !== undefined) return errorResult('task_complete was already called; the task is complete.');
      const succeed = input.succeed !== false;
      if (!succeed) {
        if (!input.reason) return errorResult('A `reason` is required when succeed is false.');
        return okResult({ status: 'ok', outcome: 'failed' });
      }
      if (options.output && !options.state.hasOutput) {
        return errorResult('This task requires structured output: call submit_output with a valid output first, then task_complete.');
      }
      if (routeTargets.length === 0) {
        if (input.route !== undefined && input.route !== 'none') return errorResult('This task has no router; omit `route`.');
        return okResult({ status: 'ok' });
      }
      if (input.route === undefined) return errorResult(`Choose a route: one of ${[...routeTargets, 'none'].join(', ')}.`);
      if (input.route !== 'none' && !routeTargets.includes(input.route)) {
        return errorResult(`Unknown route "${input.route}". Choose one of ${[...routeTargets, 'none'].join(', ')}.`);
      }
      return okResult({ status: 'ok', routed_to: input.route });
    },
  );
  tool.runsLast = true;
  return tool;
}

function internalTool<S extends z.ZodType>(
  name: string,
  description: string,
  schema: S,
  onInterrupted: SessionTool['onInterrupted'],
  run: (input: z.infer<S>, call: ToolCall) => Promise<ToolResult>,
): SessionTool {
  const definition: ToolDefinition = { name, description, inputSchema: cachedInputSchema(name, schema) };
  return {
    ref: name,
    definition,
    onInterrupted,
    async execute(call) {
      const parsed = schema.safeParse(call.input);
      if (!parsed.success) return errorResult(`Invalid input for ${name}: ${formatZodIssues(parsed.error)}`);
      return run(parsed.data, call);
    },
  };
}

// Converting a zod schema to JSON Schema is the costliest part of building a commander; the same
// tool with the same field descriptions (which carry the agent names and routes) converts once.
const schemaCache = new Map<string, Record<string, unknown>>();

function cachedInputSchema(name: string, schema: z.ZodType): Record<string, unknown> {
  const shape = schema instanceof z.ZodObject ? Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => `${k}:${v.description ?? ''}`) : [];
  const key = `${name}\u0000${shape.join('\u0000')}`;
  let json = schemaCache.get(key);
  if (!json) {
    json = toolInputSchema(schema);
    schemaCache.set(key, json);
  }
  return json;
}

export function toolInputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json['$schema'];
  return json;
}

export function formatZodIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : 'input'}: ${i.message}`).join('; ');
}

function replyResult(reply: AgentReply): ToolResult {
  if (reply.ok) return okResult({ agent_id: reply.agentId, status: 'answered', answer: reply.answer });
  return { content: [{ type: 'text', text: JSON.stringify({ agent_id: reply.agentId, status: 'failed', error: reply.error }) }], isError: true };
}

function okResult(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], isError: false };
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
