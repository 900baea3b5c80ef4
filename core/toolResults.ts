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
  /** Answered by a test's `mock_tool` (squadron test): the tool was never executed. */
  mocked?: true;
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
