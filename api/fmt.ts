// Formatting HCL in the canonical layout (config/hcl/fmt.ts), as `squadron fmt` does: files found as
// the loader finds them (a folder recursively, minus dot-folders, node_modules and .squadronignore),
// read as it reads them (a FIFO or a binary file is a problem, not a hang); a reference written as a
// string (a REF004 warning) loses its quotes. A file with syntax errors is reported, never rewritten;
// a rewrite goes through a temporary file, so a crash never leaves half a config.

import { closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { capDiagnostics } from '../config/diagnostics.js';
import { discoverFiles, readHclFile } from '../config/files.js';
import type { Diagnostic } from '../config/hcl/diagnostic.js';
import { formatHcl } from '../config/hcl/fmt.js';
import { unquoteReferences } from '../config/unquoteRefs.js';

export interface FormattedText {
  /** The formatted text; undefined when the source has syntax errors. */
  text?: string;
  /** The errors (at most 50 a file), when `text` is undefined. */
  diagnostics: Diagnostic[];
}

/** `source` in the canonical layout; `file` names it in diagnostics. */
export function formatSource(source: string, file: string): FormattedText {
  const result = formatHcl(unquoteReferences(source, file), file);
  return result.text === undefined ? { diagnostics: capDiagnostics(result.diagnostics) } : { text: result.text, diagnostics: [] };
}

export interface FormattedFile {
  /** Absolute. */
  path: string;
  status: 'formatted' | 'unchanged' | 'invalid';
  /** With `keepText`, for a file that changes: its text before and after. */
  before?: string;
  after?: string;
}

export interface FormatOptions {
  /** Rewrite the files that change (false: only say which would). */
  write: boolean;
  /** Keep each changing file's text before and after (for a diff). */
  keepText?: boolean;
}

export interface FormatReport {
  files: FormattedFile[];
  /** Files that could not be read or parsed, and folders that could not be walked. */
  diagnostics: Diagnostic[];
  /** The text of each file read, by path (to render the diagnostics with excerpts). */
  sources: ReadonlyMap<string, string>;
}

/** Formats every .hcl file of `paths` (files or folders, absolute or from the current folder). */
export function formatFiles(paths: readonly string[], opts: FormatOptions): FormatReport {
  const files: FormattedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  for (const given of paths) {
    const found = discoverFiles(resolve(given));
    diagnostics.push(...found.diagnostics);
    for (const file of found.files) {
      const read = readHclFile(file);
      if ('problem' in read) {
        diagnostics.push(read.problem);
        files.push({ path: file, status: 'invalid' });
        continue;
      }
      const source = read.text;
      sources.set(file, source);
      const result = formatSource(source, file);
      if (result.text === undefined) {
        diagnostics.push(...result.diagnostics);
        files.push({ path: file, status: 'invalid' });
        continue;
      }
      const changed = result.text !== source;
      if (changed && opts.write) writeInPlace(file, result.text);
      files.push({ path: file, status: changed ? 'formatted' : 'unchanged', ...(changed && opts.keepText ? { before: source, after: result.text } : {}) });
    }
  }
  return { files, diagnostics, sources };
}

/**
 * Through a temporary file beside it, flushed to disk before the rename, so a crash, a power loss or
 * a full disk never leaves a half-written config (a failed write removes the temporary file and
 * leaves the config as it was); the mode is kept.
 */
function writeInPlace(path: string, text: string): void {
  const file = realpathSync(path); // a linked config is rewritten where it lives, the link kept
  const temp = `${file}.squadron-fmt-${process.pid}`;
  const fd = openSync(temp, 'wx');
  let renamed = false;
  try {
    try {
      writeFileSync(fd, text); // every byte, or a throw
      fchmodSync(fd, statSync(file).mode & 0o7777);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    renamed = true;
  } finally {
    if (!renamed) rmSync(temp, { force: true });
  }
}
