// The commander's orchestration tools: call_agent, ask_agent, submit_output (only when the task
// declares an output schema) and task_complete. Their JSON schemas carry everything the model must
// choose from — agent names and route targets as enums, the task's output fields with their types —
// and are marked strict, so providers that enforce schemas while sampling do. Inputs are still checked
// here (zod, and the output's own validator) and every mistake goes back to the model as one clear
// error result listing all problems; the JSON schemas come from the same zod schemas where they can,
// so what the model is told and what is enforced cannot drift apart.

import { z } from 'zod';
import type { FieldSchema, Route } from '../../config/graph.js';
import type { JsonSchema, ToolDefinition } from '../providers/types.js';
import type { ToolResult } from '../tools/types.js';
import type { CommanderState } from '../kernel/commanderState.js';
import { validateOutput } from './outputValidation.js';
import { outputJsonSchema } from './outputSchema.js';
import type { SessionTool, ToolCall } from '../tools/toolbox.js';

/** `sessionId`: the answering agent's session, whose latest message is the answer. */
export type AgentReply = { ok: true; agentId: string; answer: string; sessionId?: string } | { ok: false; agentId?: string; error: string };

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
  return [callAgentTool(options.agents), askAgentTool(options.agents), ...finishingTools(options)];
}

/** What finishes a task: its decisions, without agents to decide between. */
export type FinishingToolOptions = Omit<CommanderToolOptions, 'agents'>;

/**
 * submit_output (when the task declares an output schema) and task_complete (with the route choice
 * when the task has routes): held by the commander, or by the worker of a direct task.
 */
export function finishingTools(options: FinishingToolOptions): SessionTool[] {
  const tools: SessionTool[] = [];
  if (options.output) tools.push(submitOutputTool(options.output));
  tools.push(taskCompleteTool(options));
  return tools;
}

function callAgentTool(agents: AgentDirectory): SessionTool {
  const names = agents.names();
  const [first, ...rest] = names;
  const schema = sharedSchema('call_agent', names.join('\u0000'), () =>
    z
      .object({
        name: (first === undefined ? z.string() : z.enum([first, ...rest])).describe('The agent to call.'),
        task: z.string().min(1).optional().describe('A new, self-contained piece of work for the agent.'),
        response: z.string().min(1).optional().describe("A reply continuing the agent's conversation (answer its question, correct it)."),
      })
      .strict(),
  );
  return internalTool(
    'call_agent',
    'Delegate work to an agent and wait for its answer. Give exactly one of `task` or `response`.',
    schema,
    'resume',
    { key: names.join('\u0000') },
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
  const schema = sharedSchema('ask_agent', '', () =>
    z
      .object({
        agent_id: z.string().describe('The agent_id returned by an earlier call_agent.'),
        question: z.string().min(1).describe('A follow-up question about the work the agent did.'),
      })
      .strict(),
  );
  return internalTool(
    'ask_agent',
    'Ask an agent that already worked on this task a follow-up question; it answers from its own conversation.',
    schema,
    'resume',
    {},
    async (input, call) => replyResult(await agents.ask(input.agent_id, input.question, call.callId)),
  );
}

function submitOutputTool(fields: readonly FieldSchema[]): SessionTool {
  const schema = sharedSchema('submit_output', '', () => z.object({ output: z.record(z.string(), z.unknown()) }).strict());
  let jsonSchema = submitSchemas.get(fields);
  if (!jsonSchema) {
    jsonSchema = {
      type: 'object',
      properties: { output: { ...outputJsonSchema(fields), description: "The task's output, with the fields its schema declares." } },
      required: ['output'],
      additionalProperties: false,
    };
    submitSchemas.set(fields, jsonSchema);
  }
  const tool = internalTool(
    'submit_output',
    "Submit the task's structured output. A later valid submission replaces an earlier one.",
    schema,
    'rerun',
    { json: jsonSchema },
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

function taskCompleteTool(options: FinishingToolOptions): SessionTool {
  const routeTargets = options.routes.map((r) => r.target);
  const routed = routeTargets.length > 0;
  const schema = sharedSchema('task_complete', routeTargets.join('\u0000'), () => {
    const fields = {
      summary: z.string().min(1).describe('What was achieved, stated completely: later tasks read only this.'),
      succeed: z.boolean().optional().describe('false when the objective could not be met (default true).'),
      reason: z.string().optional().describe('Why the task failed (required when succeed is false).'),
    };
    // Without a router there is no route to choose, so the schema offers none.
    return routed
      ? z
          .object({
            ...fields,
            route: z
              .enum([routeTargets[0]!, ...routeTargets.slice(1), 'none'])
              .optional()
              .describe('Where the mission goes next (required when succeed is true): a target of the routing rules, or none.'),
          })
          .strict()
      : z.object(fields).strict();
  });
  const tool = internalTool(
    'task_complete',
    'Finish this task with a summary for later tasks. Call it last, once the work is done (or cannot be done).',
    schema,
    'rerun',
    { key: routeTargets.join('\u0000'), prepare: routed ? undefined : withoutRoute },
    async (input: { summary: string; succeed?: boolean | undefined; reason?: string | undefined; route?: string | undefined }) => {
      if (options.state.completion !== undefined) return errorResult('task_complete was already called; the task is complete.');
      const succeed = input.succeed !== false;
      if (!succeed) {
        if (!input.reason) return errorResult('A `reason` is required when succeed is false.');
        return okResult({ status: 'ok', outcome: 'failed' });
      }
      if (options.output && !options.state.hasOutput) {
        return errorResult('This task requires structured output: call submit_output with a valid output first, then task_complete.');
      }
      if (!routed) return okResult({ status: 'ok' });
      // The enum has already refused a target outside the routing rules.
      if (input.route === undefined) return errorResult(`Choose a route: one of ${[...routeTargets, 'none'].join(', ')}.`);
      return okResult({ status: 'ok', routed_to: input.route });
    },
  );
  tool.runsLast = true;
  return tool;
}

interface InternalToolOptions {
  /** Distinguishes schemas that differ by more than descriptions (enum values), for the cache. */
  key?: string;
  /** The JSON schema sent to the model, when the zod schema cannot express it. */
  json?: JsonSchema;
  /** Runs before the zod check: a rewritten input, or an error result to return as is. */
  prepare?: (input: Record<string, unknown>) => { input: Record<string, unknown> } | { error: ToolResult };
}

function internalTool<S extends z.ZodType>(
  name: string,
  description: string,
  schema: S,
  onInterrupted: SessionTool['onInterrupted'],
  opts: InternalToolOptions,
  run: (input: z.infer<S>, call: ToolCall) => Promise<ToolResult>,
): SessionTool {
  const inputSchema = opts.json ?? cachedInputSchema(name, schema, opts.key ?? '');
  const definition = sharedDefinition(name, description, inputSchema);
  return {
    ref: name,
    definition,
    onInterrupted,
    async execute(call) {
      let input = withoutNulls(call.input);
      if (opts.prepare && isRecord(input)) {
        const prepared = opts.prepare(input);
        if ('error' in prepared) return prepared.error;
        input = prepared.input;
      }
      const parsed = schema.safeParse(input);
      if (!parsed.success) return errorResult(`Invalid input for ${name}: ${formatZodIssues(parsed.error)}`);
      return run(parsed.data, call);
    },
  };
}

/**
 * Strict tool calling (OpenAI) sends every optional property, as null when it has no value; none of
 * these tools gives null a meaning of its own, so a null property is read as absent.
 */
function withoutNulls(input: unknown): unknown {
  if (!isRecord(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null));
}

/** task_complete of a task without router: `route: "none"` means nothing; any other target is a mistake. */
function withoutRoute(input: Record<string, unknown>): { input: Record<string, unknown> } | { error: ToolResult } {
  const { route, ...rest } = input;
  if (route !== undefined && route !== 'none') return { error: errorResult('This task has no router; omit `route`.') };
  return { input: rest };
}

// The same tool with the same enum values gets the same zod schema object: zod compiles a schema's
// checks on its first parse, so a schema built afresh for every commander (an item of a fan-out
// builds one each) pays that compilation on every call.
const zodCache = new Map<string, z.ZodType>();

function sharedSchema<S extends z.ZodType>(name: string, variant: string, build: () => S): S {
  const key = `${name}\u0000${variant}`;
  let schema = zodCache.get(key);
  if (!schema) {
    schema = build();
    zodCache.set(key, schema);
  }
  return schema as S;
}

// Converting a zod schema to JSON Schema is the costliest part of building a commander; the same
// tool with the same field descriptions and enum values converts once.
const schemaCache = new Map<string, Record<string, unknown>>();
const bySchema = new WeakMap<z.ZodType, Record<string, unknown>>();
/** submit_output's JSON schema for a task's output fields (every item of a fan-out shares the task's). */
const submitSchemas = new WeakMap<readonly FieldSchema[], JsonSchema>();

function cachedInputSchema(name: string, schema: z.ZodType, variant: string): Record<string, unknown> {
  const known = bySchema.get(schema);
  if (known) return known;
  const shape = schema instanceof z.ZodObject ? Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => `${k}:${v.description ?? ''}`) : [];
  const key = `${name}\u0000${variant}\u0000${shape.join('\u0000')}`;
  let json = schemaCache.get(key);
  if (!json) {
    json = toolInputSchema(schema);
    schemaCache.set(key, json);
  }
  bySchema.set(schema, json);
  return json;
}

// The definition sent to the model, one object per schema: what is derived from a definition once
// (its request size, its provider form) is then derived once for every commander that holds it.
const definitions = new WeakMap<object, ToolDefinition>();

function sharedDefinition(name: string, description: string, inputSchema: Record<string, unknown>): ToolDefinition {
  const known = definitions.get(inputSchema);
  if (known?.name === name && known.description === description) return known;
  const definition: ToolDefinition = { name, description, inputSchema, strict: true };
  definitions.set(inputSchema, definition);
  return definition;
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
  if (reply.ok) {
    const result = okResult({ agent_id: reply.agentId, status: 'answered', answer: reply.answer });
    // The answer is the agent's stored message: a stored copy of this result refers to it.
    if (reply.sessionId !== undefined) result.quotes = { sessionId: reply.sessionId, text: reply.answer };
    return result;
  }
  return { content: [{ type: 'text', text: JSON.stringify({ agent_id: reply.agentId, status: 'failed', error: reply.error }) }], isError: true };
}

function okResult(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], isError: false };
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
