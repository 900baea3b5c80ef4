// An MCP server's `elicitation/create` as a question to the operator, through the same desk as
// builtins.human.ask: the form's requested schema becomes fields (name, type, description, enum
// choices, required), the answer goes back as the elicitation's content, and a decline as `decline`.
// When nobody can answer now, the server is told `cancel`, the call goes back to waiting in the
// ledger (it runs again on resume, when the same question finds its stored answer) and the session parks.

import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { RunParked } from '../kernel/session.js';
import { parseItemLabel } from '../../core/sessionLabels.js';
import type { Store } from '../../store/index.js';
import type { McpElicitationRequest, McpElicitor } from '../tools/mcp/client.js';
import type { OperatorDesk } from './desk.js';
import type { OperatorAnswer, QuestionPayload } from './types.js';

export function createElicitor(store: Store, runId: string, desk: OperatorDesk): McpElicitor {
  return async (request) => {
    const question = questionOf(request);
    const { caller } = request;
    if (!question || caller.sessionId === undefined) return { result: { action: 'decline' } };
    const item = parseItemLabel(caller.task);
    const row = await desk.resolve(
      {
        runId,
        task: caller.task,
        ...(item ? { item: item.index } : {}),
        agent: caller.agent,
        sessionId: caller.sessionId,
        callId: caller.callId,
        seq: request.seq,
        kind: 'question',
        toolRef: `mcp.${request.server}`,
        payload: question,
      },
      { question },
    );
    if (row === 'parked') {
      await store.ledger.reopen(caller.sessionId, caller.callId);
      return { park: new RunParked(`waiting for an answer to a question of MCP server "${request.server}"`) };
    }
    if (row.status === 'declined') return { result: { action: 'decline' } };
    return { result: { action: 'accept', content: contentOf(question, row.answer as OperatorAnswer | undefined) } };
  };
}

/** The form as a question; undefined for a request Squadron cannot present (a URL to open). */
function questionOf(request: McpElicitationRequest): QuestionPayload | undefined {
  const params = request.params as { message?: string; requestedSchema?: { properties?: Record<string, Record<string, unknown>>; required?: string[] } };
  if (typeof params.message !== 'string' || params.requestedSchema === undefined) return undefined;
  const fields: NonNullable<QuestionPayload['fields']> = {};
  for (const [name, schema] of Object.entries(params.requestedSchema.properties ?? {})) {
    const field: NonNullable<QuestionPayload['fields']>[string] = {};
    if (typeof schema['type'] === 'string') field.type = schema['type'];
    if (typeof schema['description'] === 'string') field.description = schema['description'];
    if (typeof schema['title'] === 'string') field.title = schema['title'];
    if (Array.isArray(schema['enum'])) field.enum = schema['enum'];
    fields[name] = field;
  }
  const q: QuestionPayload = { question: `MCP server "${request.server}" asks: ${params.message}`, fields };
  if (params.requestedSchema.required?.length) q.required = params.requestedSchema.required;
  return q;
}

function contentOf(question: QuestionPayload, answer: OperatorAnswer | undefined): NonNullable<ElicitResult['content']> {
  if (answer?.fields) return answer.fields as NonNullable<ElicitResult['content']>;
  const names = Object.keys(question.fields ?? {});
  if (answer?.text !== undefined && names.length === 1) return { [names[0]!]: answer.text };
  return {};
}
