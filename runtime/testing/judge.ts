// The LLM judge of `squadron test`: judge("is the reply polite?", value) asks a model a yes/no
// question about a value and reads its `verdict` tool call. A judge call is a model call like any
// other: through the model's client (so --record writes it to the cassette and a replay plays it
// back), priced from the model's pricing, and refused once the mission's dollar budget is spent.

import { renderPrompt } from '../../core/promptTemplates.js';
import type { SessionModel } from '../kernel/session.js';
import type { GatedClient } from '../model/modelCall.js';
import { totalTokens } from '../kernel/usage.js';

export interface JudgeQuestion {
  question: string;
  /** The value judged, as JSON text (strings as they are). */
  value: string;
}

export interface JudgeVerdict {
  pass: boolean;
  reason: string;
  costUsd: number;
  tokens: number;
}

export interface JudgeModel {
  client: GatedClient;
  model: SessionModel;
  /** Where the call is filed in a cassette (`task` is the test's label). */
  trace: { task: string; agent: string };
}

const VERDICT_TOOL = {
  name: 'verdict',
  description: 'Gives the verdict: pass (true: yes, false: no) and the reason in one sentence.',
  inputSchema: {
    type: 'object',
    properties: { pass: { type: 'boolean' }, reason: { type: 'string' } },
    required: ['pass', 'reason'],
    additionalProperties: false,
  },
};

export async function askJudge(judge: JudgeModel, q: JudgeQuestion, turn: number, signal?: AbortSignal): Promise<JudgeVerdict> {
  const { response, costUsd } = await judge.client.call(
    {
      model: judge.model.apiModel,
      system: renderPrompt('judge', {}),
      messages: [{ role: 'user', parts: [{ type: 'text', text: `Question: ${q.question}\n\nValue:\n${q.value}` }] }],
      tools: [VERDICT_TOOL],
      maxOutputTokens: Math.min(1024, judge.model.maxOutputTokens),
      trace: { task: judge.trace.task, agent: judge.trace.agent, turn },
    },
    signal ? { signal } : {},
  );
  const tokens = totalTokens({ ...response.usage });
  const call = response.message.parts.find((p) => p.type === 'tool_use' && p.name === 'verdict');
  const input = call?.type === 'tool_use' ? (call.input as { pass?: unknown; reason?: unknown }) : undefined;
  if (typeof input?.pass !== 'boolean') {
    const text = response.message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ').trim();
    return { pass: false, reason: `the judge gave no verdict${text ? `: ${text.slice(0, 200)}` : ''}`, costUsd, tokens };
  }
  return { pass: input.pass, reason: typeof input.reason === 'string' ? input.reason : '', costUsd, tokens };
}
