// The mission's memory slots (the Go original's memories, scratchpad and packets) and the tools an
// agent reads and writes them with.

import type { Toolbox, ToolCall } from '../tools/toolbox.js';
import type { ToolContext } from '../tools/types.js';
import type { MemorySlot } from './slots.js';
import { memoryTools } from './tools.js';

export { missionSlots, type MemorySlot } from './slots.js';

/** Gives an agent's toolbox the memory tools when its mission has slots (after its own tools). */
export function addMemoryTools(toolbox: Toolbox, slots: readonly MemorySlot[], context: (call: ToolCall) => ToolContext): void {
  for (const tool of memoryTools(slots, context)) {
    toolbox.authorize(tool);
    toolbox.show(tool.definition.name);
  }
}
