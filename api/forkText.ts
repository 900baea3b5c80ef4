// A fork point as `runs` and `inspect` show it: `run_… at task draft, turn 3` and its JSON form.

import type { ForkPoint } from '../store/index.js';

export function forkPointText(parent: string, fork: ForkPoint): string {
  return `${parent} at ${fork.task}${fork.turn !== undefined ? ` turn ${fork.turn}` : ''}`;
}

export interface ForkPointJson {
  task: string;
  turn?: number;
  changes: string[];
  copied: string[];
}

export function forkJson(fork: ForkPoint): ForkPointJson {
  return { task: fork.task, ...(fork.turn !== undefined ? { turn: fork.turn } : {}), changes: fork.changes, copied: fork.copied };
}
