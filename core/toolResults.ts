// What a tool call returned, as the runtime hands it to the model and the store's ledger keeps it.
// Bottom layer: imports only core/.

import type { ToolResultContent } from './messages.js';

export interface ToolResult {
  content: ToolResultContent[];
  isError: boolean;
  /** MCP `structuredContent`, passed through faithfully. */
  structured?: unknown;
  /**
   * MCP content with no canonical part (embedded resources, resource links, audio), kept verbatim
   * for the store and for display. `content` always carries a text rendering of each for the model.
   */
  resources?: ToolResultResource[];
  /**
   * The result's text holds, JSON-escaped, the whole answer of an agent (the latest assistant
   * message of that session): a stored copy of the result keeps the answer by reference to that
   * message instead of a second copy of its text.
   */
  quotes?: QuotedAnswer;
  /** Answered by a test's `mock_tool` (squadron test): the tool was never executed. */
  mocked?: true;
}

export interface QuotedAnswer {
  sessionId: string;
  text: string;
}

export interface ToolResultResource {
  kind: 'resource' | 'resource_link' | 'audio';
  uri?: string;
  name?: string;
  mimeType?: string;
  /** Text of a text resource. */
  text?: string;
  /** base64 payload of a blob resource or audio clip. */
  blob?: string;
}

export function textResult(text: string, isError = false): ToolResult {
  return { content: [{ type: 'text', text }], isError };
}
