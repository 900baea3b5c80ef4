// The attribute keys and values the spans use, as the pinned version of the OpenTelemetry GenAI
// semantic conventions writes them (semantic-conventions-genai v0.1.0, all "Development"), plus our
// own under `squadron.*`. One place, so a move to a newer version of the conventions is one diff.

import type { StopReason } from '../core/messages.js';

/** The conventions this instrumentation emits (docs/concepts/telemetry.md says the same). */
export const SEMCONV_GENAI_VERSION = 'semantic-conventions-genai v0.1.0';
export const SEMCONV_SCHEMA_URL = 'https://opentelemetry.io/schemas/1.41.0';
export const INSTRUMENTATION_NAME = 'squadron';

export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  /** Deprecated since v1.37 for gen_ai.provider.name; sent besides it unless OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental. */
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  conversationId: 'gen_ai.conversation.id',
  workflowName: 'gen_ai.workflow.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  outputMessages: 'gen_ai.output.messages',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  mcpMethod: 'mcp.method.name',
  // Ours.
  runId: 'squadron.run.id',
  task: 'squadron.task.name',
  costUsd: 'squadron.cost_usd',
  turn: 'squadron.turn',
  toolSource: 'squadron.tool.source',
  toolOutcome: 'squadron.tool.outcome',
  mcpServer: 'squadron.mcp.server',
  runStatus: 'squadron.run.status',
} as const;

/** The provider names the conventions list for our providers. */
export function providerName(provider: string): string {
  return provider === 'anthropic' ? 'anthropic' : provider === 'openai' ? 'openai' : provider;
}

/** Our stop reasons as the finish reasons the conventions' examples use. */
export function finishReason(stop: StopReason): string {
  switch (stop) {
    case 'end_turn':
      return 'stop';
    case 'tool_use':
      return 'tool_call';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

/** Where a tool comes from, by its ref: builtins.*, tools.* (custom) or mcp.<server>.<tool>. */
export function toolSource(ref: string): { source: 'builtin' | 'custom' | 'mcp' | 'orchestration'; server?: string; name?: string } {
  const [head, second, ...rest] = ref.split('.');
  if (head === 'mcp' && second !== undefined) return { source: 'mcp', server: second, name: rest.join('.') };
  if (head === 'builtins') return { source: 'builtin' };
  if (head === 'tools') return { source: 'custom' };
  return { source: 'orchestration' };
}
