// A ToolContext for tests: a workspace directory and an abort signal, the rest fixed.

import type { ToolContext, ToolResult } from '../../../runtime/tools/types.js';

export function toolContext(workspaceDir = '/nonexistent-workspace', signal: AbortSignal = new AbortController().signal): ToolContext {
  return { workspaceDir, signal, runId: 'run_test', task: 'task', agent: 'worker', callId: 'toolu_1' };
}

/** All text parts of a result, joined. */
export function textOf(result: ToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mediaType}]`)).join('\n');
}
