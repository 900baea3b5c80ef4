// The one interception point every tool result passes before the model sees it (builtin, custom and
// MCP tools, agents' answers to a commander): a result over the session's `tool_response` limit is
// stored whole under a content-addressed handle and replaced by a preview. The read tools' own
// answers are bounded by the same limit and pass through untouched.

import type { StoredPayload } from '../../core/storedResults.js';
import type { Store } from '../../store/index.js';
import type { ToolResult } from '../tools/types.js';
import { renderPreview } from './preview.js';
import { estimateTokens } from './size.js';

export interface ResultScope {
  store: Store;
  runId: string;
  sessionId: string;
  /** The session's `tool_response.max_tokens`. */
  maxTokens: number;
}

/** The result the model gets: the same one when it fits, a preview of the stored one otherwise. */
export async function offloadResult(scope: ResultScope, result: ToolResult): Promise<ToolResult> {
  const tokens = estimateTokens(result.content);
  if (tokens <= scope.maxTokens) return result;
  const payload = payloadOf(result);
  const { handle } = await scope.store.storedResults.put({ runId: scope.runId, sessionId: scope.sessionId, payload, ...(result.quotes ? { quotes: result.quotes } : {}) });
  const json = payload.format === 'json' ? (JSON.parse(payload.text) as unknown) : undefined;
  const text = renderPreview(payload, handle, tokens, scope.maxTokens, json);
  return { content: [{ type: 'text', text }], isError: result.isError, ...(result.mocked ? { mocked: true as const } : {}) };
}

/** What is stored: the text the model would have read (JSON when it is one object or array) and the images. */
export function payloadOf(result: ToolResult): StoredPayload {
  const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n\n');
  const images = result.content.flatMap((c) => (c.type === 'image' ? [{ mediaType: c.mediaType, data: c.data }] : []));
  const payload: StoredPayload = { format: isJsonDocument(text) ? 'json' : 'text', text, images };
  // Structured content the text already renders (an MCP result with no text of its own) is not kept twice.
  if (result.structured !== undefined && !(payload.format === 'json' && sameJson(text, result.structured))) payload.structured = result.structured;
  if (result.resources !== undefined) payload.resources = result.resources;
  return payload;
}

function sameJson(text: string, value: unknown): boolean {
  return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
}

function isJsonDocument(text: string): boolean {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
