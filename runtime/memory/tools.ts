// memory_list, memory_read, memory_write: an agent's tools over its mission's memory slots (the Go
// original's file_* tools with a `slot`). Each call runs the builtin file tools confined to the slot's
// folder (every path checked the same way as in the run's workspace); a packet slot is read-only.

import { mkdir } from 'node:fs/promises';
import type { SessionTool, ToolCall } from '../tools/toolbox.js';
import { writeFileTool, WriteQueue } from '../tools/builtins/fileWrite.js';
import { listFilesTool, readFileTool, type FilesOptions } from '../tools/builtins/files.js';
import { WorkspacePins } from '../tools/builtins/workspaceWalk.js';
import { validateToolInput, invalidInputResult } from '../tools/inputValidation.js';
import { textResult, type ToolContext, type ToolResult } from '../tools/types.js';
import type { MemorySlot } from './slots.js';

export const MEMORY_TOOL_NAMES = ['memory_list', 'memory_read', 'memory_write'] as const;

/** One per run is enough; created per session here, which only costs a map. */
function filesOptions(): FilesOptions & { writes: WriteQueue } {
  return { pins: new WorkspacePins(), writes: new WriteQueue() };
}

export function memoryTools(slots: readonly MemorySlot[], context: (call: ToolCall) => ToolContext): SessionTool[] {
  if (slots.length === 0) return [];
  const options = filesOptions();
  const list = slots.map((s) => `- ${s.name}${s.readOnly ? ' (read-only)' : ''}: ${s.description}`).join('\n');
  const slotProp = { type: 'string', enum: slots.map((s) => s.name), description: 'Which memory slot.' };
  const writable = slots.filter((s) => !s.readOnly);

  const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[], onInterrupted: SessionTool['onInterrupted'], run: (slot: MemorySlot, input: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>): SessionTool => {
    const inputSchema = { type: 'object', properties: { slot: slotProp, ...properties }, required: ['slot', ...required], additionalProperties: false };
    return {
      ref: name,
      definition: { name, description: `${description}\n\nMemory slots:\n${list}`, inputSchema },
      onInterrupted,
      async execute(call) {
        const checked = validateToolInput(inputSchema, call.input);
        if (!checked.ok) return invalidInputResult(name, checked.errors);
        const input = checked.value as Record<string, unknown>;
        const slot = slots.find((s) => s.name === input['slot'])!;
        try {
          if (!slot.readOnly) await mkdir(slot.dir, { recursive: true, mode: 0o700 });
          return await run(slot, input, { ...context(call), workspaceDir: slot.dir });
        } catch (err) {
          return textResult(`${name} failed: ${err instanceof Error ? err.message : String(err)}`, true);
        }
      },
    };
  };

  const tools = [
    tool('memory_list', 'List the files of a memory slot (a folder kept for the mission).', { path: { type: 'string', description: 'A folder inside the slot (default: its top).' }, recursive: { type: 'boolean' } }, [], 'rerun', (_s, input, ctx) =>
      listFilesTool(input as { path?: string; recursive?: boolean }, ctx, options),
    ),
    tool('memory_read', 'Read a text file of a memory slot.', { path: { type: 'string', description: 'The file, relative to the slot.' }, max_bytes: { type: 'integer', minimum: 1 } }, ['path'], 'rerun', (_s, input, ctx) =>
      readFileTool(input as { path: string; max_bytes?: number }, ctx, options),
    ),
  ];
  if (writable.length > 0) {
    tools.push(
      tool(
        'memory_write',
        'Write (or append to) a text file of a memory slot; what is written to a memory stays for later runs of the mission, the scratchpad for this run only.',
        { path: { type: 'string', description: 'The file, relative to the slot.' }, content: { type: 'string' }, append: { type: 'boolean' } },
        ['path', 'content'],
        'report',
        (slot, input, ctx) =>
          slot.readOnly
            ? Promise.resolve(textResult(`slot "${slot.name}" is read-only (a packet is a bundle of reference files)`, true))
            : writeFileTool(input as { path: string; content: string; append?: boolean }, ctx, options),
      ),
    );
  }
  return tools;
}
