// Folders Squadron creates for its own files (.squadron/, logs/, workspaces/, a database's folder)
// are owner-only (0700) under any umask. mkdir's mode is masked by the umask, so each folder this
// call creates is chmodded afterwards — only those: a folder that already existed is left as it is.

import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const PRIVATE_DIR_MODE = 0o700;

/** Creates `dir` and its missing parents; the ones created get exactly mode 0700. */
export function makePrivateDirs(dir: string): void {
  const target = resolve(dir);
  const first = mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  // mkdirSync returns the first folder it created; every folder from there down to `target` is new.
  const created: string[] = [];
  for (let d = target; ; d = dirname(d)) {
    created.push(d);
    if (d === first || dirname(d) === d) break;
  }
  // Parents first, so a umask that left no execute bit cannot stop us reaching the children.
  for (const d of created.reverse()) chmodSync(d, PRIVATE_DIR_MODE);
}
