// What a commander has decided so far: the output it submitted and how it completed the task.
// Derived only from its conversation (each successful submit_output / task_complete call and its
// result), so the same state comes back after a crash, whether the calls ran or were replayed.

import type { ToolResultPart, ToolUsePart } from '../providers/types.js';
import type { SessionMessage } from './session.js';

export interface Completion {
  summary: string;
  succeed: boolean;
  reason?: string;
  route?: string;
}

export class CommanderState {
  output: unknown = undefined;
  hasOutput = false;
  completion: Completion | undefined = undefined;
  /** A sequential iterator: how many items dataset_next has handed out, and whether the current one's output was submitted. */
  itemsTaken = 0;
  itemOutputSubmitted = false;

  observe(call: ToolUsePart, result: ToolResultPart): void {
    if (result.isError) return;
    const input = (call.input ?? {}) as Record<string, unknown>;
    if (call.name === 'submit_output') {
      this.output = input['output'];
      this.hasOutput = true;
      this.itemOutputSubmitted = true;
    } else if (call.name === 'dataset_next') {
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      if (text.startsWith('{"status":"ok"')) {
        this.itemsTaken++;
        this.itemOutputSubmitted = false;
      }
    } else if (call.name === 'task_complete' && this.completion === undefined) {
      const completion: Completion = {
        summary: typeof input['summary'] === 'string' ? input['summary'] : '',
        succeed: input['succeed'] !== false,
      };
      if (typeof input['reason'] === 'string') completion.reason = input['reason'];
      if (typeof input['route'] === 'string') completion.route = input['route'];
      this.completion = completion;
    }
  }

  static fromHistory(history: readonly SessionMessage[]): CommanderState {
    const state = new CommanderState();
    const calls = new Map<string, ToolUsePart>();
    for (const message of history) {
      for (const part of message.parts) {
        if (part.type === 'tool_use') calls.set(part.id, part);
        else if (part.type === 'tool_result') {
          const call = calls.get(part.toolUseId);
          if (call) state.observe(call, part);
        }
      }
    }
    return state;
  }
}
