// A mission's memory slots as folders (the Go original's layout under the state folder): a shared
// memory at .squadron/memories/shared/<name>, the mission's own at .squadron/memories/mission/<mission>
// (both kept across runs), the scratchpad at .squadron/scratchpads/<mission>/<run> (the run's own,
// the same after resume), and each packet at its path in the project, read-only.

import { join } from 'node:path';
import type { Mission, MissionGraph } from '../../config/graph.js';
import { SQUADRON_DIR } from '../../config/projectLayout.js';

export interface MemorySlot {
  /** What the model names it: the memory's name, `memory`, `scratchpad`, `packet.<name>`. */
  name: string;
  description: string;
  dir: string;
  readOnly: boolean;
}

export function missionSlots(graph: MissionGraph, mission: Mission, runId: string): MemorySlot[] {
  const s = mission.slots;
  if (s === undefined) return [];
  const state = join(graph.projectRoot, SQUADRON_DIR);
  const slots: MemorySlot[] = [];
  for (const name of s.shared) {
    const block = graph.memories?.find((m) => m.name === name);
    slots.push({ name, description: block?.description ?? '', dir: join(state, 'memories', 'shared', name), readOnly: false });
  }
  if (s.memory) slots.push({ name: 'memory', description: s.memory.description, dir: join(state, 'memories', 'mission', mission.name), readOnly: false });
  if (s.scratchpad) slots.push({ name: 'scratchpad', description: 'notes for this run only', dir: join(state, 'scratchpads', mission.name, runId), readOnly: false });
  for (const name of s.packets) {
    const block = graph.packets?.find((p) => p.name === name);
    if (block) slots.push({ name: `packet.${name}`, description: block.description ?? 'reference files (read-only)', dir: block.path, readOnly: true });
  }
  // Sorted by name, as Go lists them, so the tool descriptions (and the prompt cache) are stable.
  return slots.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
