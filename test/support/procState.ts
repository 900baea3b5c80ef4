// The state letter of a process as Linux shows it in /proc/<pid>/stat (R, S, Z for a zombie, …), or
// undefined when there is no such process. Tests use it to see zombies the runtime must treat as dead.

import { readFileSync } from 'node:fs';

export function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state …": comm may itself contain ") ", so the state follows the last ")".
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}
