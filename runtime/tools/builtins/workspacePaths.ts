// Checks a file-tool path by its text alone, before anything is opened: no NUL byte, not absolute,
// and `..` may not climb above the workspace. What is left is a list of names that
// workspaceWalk.ts opens one at a time inside the workspace. Refusals are messages, not throws.

import path from 'node:path';

export type WorkspacePath = { ok: true; names: string[]; display: string } | { ok: false; error: string };

/** `names` holds no `.`, `..` or empty name; `display` is the path in POSIX form (`.` for the workspace). */
export function parseWorkspacePath(requested: string): WorkspacePath {
  if (requested.includes('\0')) return { ok: false, error: `path ${JSON.stringify(requested)} contains a NUL byte` };
  if (path.isAbsolute(requested) || path.win32.isAbsolute(requested)) {
    return { ok: false, error: `path "${requested}" is absolute; give a path relative to the workspace directory` };
  }
  // `..` is resolved by name, as a shell would: `a/../b` is `b` even when `a` does not exist.
  const normalized = path.normalize(requested === '' ? '.' : requested);
  const names = normalized.split(path.sep).filter((n) => n !== '' && n !== '.');
  if (names[0] === '..') return { ok: false, error: `path "${requested}" leaves the workspace directory` };
  return { ok: true, names, display: names.length === 0 ? '.' : names.join('/') };
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
