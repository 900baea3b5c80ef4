// The Go original's rule for a path written in the config (`packet.path`, a local `plugin.source`):
// `@/x` is from the project root, anything else relative is from the declaring file's folder, an
// absolute path is refused, and the result must stay inside the project and not be the root itself.
// The process's working directory is never consulted.

import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export type ConfigPath = { ok: true; path: string } | { ok: false; message: string; hint: string };

export function resolveConfigPath(raw: string, declaringFile: string, projectRoot: string): ConfigPath {
  if (raw.trim() === '') return { ok: false, message: 'path is empty', hint: 'write a path relative to this file, or @/… from the project root' };
  if (isAbsolute(raw)) {
    return {
      ok: false,
      message: `path "${raw}": absolute paths are not allowed`,
      hint: 'use a path relative to the HCL file (./dir) or prefix it with "@/" for the project root (@/dir)',
    };
  }
  const root = resolve(projectRoot);
  const path = raw.startsWith('@/') ? resolve(root, raw.slice(2)) : resolve(dirname(declaringFile), raw);
  const rel = relative(root, path);
  if (rel === '') {
    return { ok: false, message: `path "${raw}" resolves to the project root itself`, hint: 'point at a folder or file inside the project, not the whole project' };
  }
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return { ok: false, message: `path "${raw}" escapes the project root ${root}`, hint: 'keep it inside the project folder (the folder holding the .hcl files): move or copy what it points at there' };
  }
  return { ok: true, path };
}
