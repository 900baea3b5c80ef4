// Confines file-tool paths to the run's workspace directory. A path is refused when it is absolute,
// when `..` leaves the workspace, or when a symbolic link on the way resolves outside it (the
// realpath of the deepest existing ancestor must stay inside). Refusals are messages, not throws.

import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

export type Confined = { ok: true; absolute: string; relative: string; exists: boolean } | { ok: false; error: string };

/**
 * Resolves `requested` inside `workspaceDir`. The returned `absolute` path has every existing
 * symbolic link resolved, so the caller acts on the real file and never follows a link again.
 */
export async function confinePath(workspaceDir: string, requested: string): Promise<Confined> {
  if (requested.includes('\0')) return { ok: false, error: `path ${JSON.stringify(requested)} contains a NUL byte` };
  if (path.isAbsolute(requested) || path.win32.isAbsolute(requested)) {
    return { ok: false, error: `path "${requested}" is absolute; give a path relative to the workspace directory` };
  }
  let root: string;
  try {
    root = await realpath(workspaceDir);
  } catch {
    return { ok: false, error: `the workspace directory ${workspaceDir} does not exist` };
  }
  const lexical = path.resolve(root, requested);
  if (!isInside(root, lexical)) return { ok: false, error: `path "${requested}" leaves the workspace directory` };

  // Walk up to the deepest existing ancestor (or the path itself) and resolve its links.
  let existing = lexical;
  const missing: string[] = [];
  for (;;) {
    const stat = await lstat(existing).catch(() => undefined);
    if (stat) {
      if (stat.isSymbolicLink()) {
        const target = await realpath(existing).catch(() => undefined);
        if (target === undefined) {
          // A dangling link could point anywhere; writing through it would create a file outside.
          return { ok: false, error: `path "${requested}" goes through a symbolic link whose target does not exist` };
        }
      }
      break;
    }
    missing.unshift(path.basename(existing));
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  const real = await realpath(existing).catch(() => undefined);
  if (real === undefined || !isInside(root, real)) {
    return { ok: false, error: `path "${requested}" resolves outside the workspace directory (through a symbolic link)` };
  }
  const absolute = path.join(real, ...missing);
  return { ok: true, absolute, relative: toPosix(path.relative(root, absolute)) || '.', exists: missing.length === 0 };
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
