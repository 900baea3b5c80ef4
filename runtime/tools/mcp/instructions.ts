// The worker-prompt section holding the instructions MCP servers give in their initialize answer,
// for the servers whose tools an agent holds (prompts/mcpInstructions.md). Each server's text is cut
// to a byte budget at a character boundary, and servers appear in group order, so the prompt stays
// small and byte-stable.

import { renderPrompt } from '../../../core/promptTemplates.js';
import type { ToolSpec } from '../types.js';

/** Bytes of one server's instructions kept in the prompt. */
export const SERVER_INSTRUCTIONS_BUDGET = 2048;

export function serverInstructionsSection(tools: readonly ToolSpec[], budget = SERVER_INSTRUCTIONS_BUDGET): string | undefined {
  const byGroup = new Map<string, string>();
  for (const tool of tools) {
    const text = tool.groupInstructions?.trim();
    if (tool.source === 'mcp' && text && !byGroup.has(tool.group)) byGroup.set(tool.group, text);
  }
  if (byGroup.size === 0) return undefined;
  const servers = [...byGroup]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([group, text]) => {
      const kept = cutToBytes(text, budget);
      return { group, instructions: kept, trimmed: kept.length < text.length, budget };
    });
  return renderPrompt('mcpInstructions', { servers }).trim();
}

/** The longest prefix of `text` within `bytes` UTF-8 bytes that does not split a character. */
function cutToBytes(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  let end = bytes;
  // Step back over continuation bytes (10xxxxxx) so a multi-byte character is never split.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return encoded.subarray(0, end).toString('utf8').trimEnd();
}
