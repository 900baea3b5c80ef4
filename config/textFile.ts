// Reading a text file the config names (a .hcl file, a load()ed prompt, a SKILL.md) the one careful
// way: only a regular file (a FIFO or a device would block or never end), within a size cap when
// one is given, and strictly UTF-8 (a binary file is one clear problem, not hundreds of errors).

import { isAscii } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';

export type TextFileProblem = 'missing' | 'not-a-file' | 'too-large' | 'not-utf8' | 'unreadable';

export type TextFile =
  | { ok: true; text: string }
  /** `message` completes "<path> …", e.g. "is not UTF-8 text". */
  | { ok: false; problem: TextFileProblem; message: string };

/** Reads `path` (symlinks followed) as UTF-8 text of at most `maxBytes` bytes. */
export function readTextFile(path: string, maxBytes = Number.POSITIVE_INFINITY): TextFile {
  let bytes: Buffer;
  try {
    // stat before open: opening a FIFO for reading blocks until a writer appears.
    const stat = statSync(path);
    if (!stat.isFile()) return { ok: false, problem: 'not-a-file', message: 'is not a regular file' };
    if (stat.size > maxBytes) {
      return { ok: false, problem: 'too-large', message: `is larger than ${formatBytes(maxBytes)} (${stat.size} bytes)` };
    }
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing', message: 'does not exist' };
    return { ok: false, problem: 'unreadable', message: `cannot be read: ${(err as Error).message}` };
  }
  // ASCII text (most configs) is decoded as Latin-1, which for ASCII gives the same string: Node
  // keeps a large Latin-1 string outside V8's heap (an external string), so a 50 MB config's text
  // does not count in the heap that V8 sizes by its live data (up to four times as much again).
  if (isAscii(bytes)) return { ok: true, text: bytes.toString('latin1') };
  try {
    // ignoreBOM keeps a byte-order mark in the text, as readFileSync(…, 'utf8') does, so positions
    // stay those of the file; the HCL lexer and the frontmatter reader skip it themselves.
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { ok: false, problem: 'not-utf8', message: 'is not UTF-8 text' };
  }
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${Number((n / (1024 * 1024)).toFixed(1))} MiB`;
}
