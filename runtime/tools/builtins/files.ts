// `builtins.files.{read,write,list}`: text files inside the run's workspace directory only (see
// workspacePaths.ts for the confinement rules). Reads and listings are bounded so a large file or
// tree cannot flood the model's context.

import { constants } from 'node:fs';
import { mkdir, open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

import type { ToolContext, ToolResult } from '../types.js';
import { textResult } from '../types.js';
import { confinePath } from './workspacePaths.js';

export interface FilesOptions {
  /** Upper bound for a read, whatever `max_bytes` asks (default 1 MiB). */
  maxReadBytes?: number;
  /** Entries shown by a listing before it stops (default 1000). */
  maxListEntries?: number;
}

const DEFAULT_MAX_READ = 1024 * 1024;
const DEFAULT_MAX_ENTRIES = 1000;
/** Bytes inspected for a NUL to tell binary files from text. */
const BINARY_SNIFF = 8192;

export async function readFileTool(input: { path: string; max_bytes?: number }, ctx: ToolContext, options: FilesOptions = {}): Promise<ToolResult> {
  const where = await confinePath(ctx.workspaceDir, input.path);
  if (!where.ok) return textResult(where.error, true);
  if (!where.exists) return textResult(`no such file: ${where.relative}`, true);
  const info = await stat(where.absolute);
  if (info.isDirectory()) return textResult(`${where.relative} is a directory; use builtins_files_list to see its contents`, true);
  if (!info.isFile()) return textResult(`${where.relative} is not a regular file`, true);

  const limit = Math.min(input.max_bytes ?? Number.POSITIVE_INFINITY, options.maxReadBytes ?? DEFAULT_MAX_READ);
  const wanted = Math.min(limit, info.size);
  const buffer = Buffer.alloc(wanted);
  const handle = await open(where.absolute, constants.O_RDONLY);
  let read = 0;
  try {
    while (read < wanted) {
      const { bytesRead } = await handle.read(buffer, read, wanted - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
  } finally {
    await handle.close();
  }
  const bytes = buffer.subarray(0, read);
  if (bytes.subarray(0, BINARY_SNIFF).includes(0)) {
    return textResult(`${where.relative} looks like a binary file (${info.size} bytes); only text files can be read`, true);
  }
  let text = bytes.toString('utf8');
  if (info.size > read) text += `\n\n[truncated: ${where.relative} is ${info.size} bytes; showing the first ${read}]`;
  return textResult(text);
}

export async function writeFileTool(input: { path: string; content: string; append?: boolean }, ctx: ToolContext): Promise<ToolResult> {
  const where = await confinePath(ctx.workspaceDir, input.path);
  if (!where.ok) return textResult(where.error, true);
  if (where.relative === '.') return textResult('give a file path, not the workspace directory itself', true);
  if (where.exists && (await stat(where.absolute)).isDirectory()) {
    return textResult(`${where.relative} is a directory; give a file path`, true);
  }
  await mkdir(path.dirname(where.absolute), { recursive: true });
  // `absolute` already has its links resolved; O_NOFOLLOW refuses a link swapped in since then.
  const flags =
    constants.O_WRONLY | constants.O_CREAT | (input.append ? constants.O_APPEND : constants.O_TRUNC) | (constants.O_NOFOLLOW ?? 0);
  const data = Buffer.from(input.content, 'utf8');
  try {
    const handle = await open(where.absolute, flags, 0o644);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return textResult(`refusing to write through a symbolic link: ${where.relative}`, true);
    return textResult(`could not write ${where.relative}: ${(err as Error).message}`, true);
  }
  return textResult(`${input.append ? 'Appended' : 'Wrote'} ${data.byteLength} bytes to ${where.relative}`);
}

export async function listFilesTool(input: { path?: string; recursive?: boolean }, ctx: ToolContext, options: FilesOptions = {}): Promise<ToolResult> {
  const where = await confinePath(ctx.workspaceDir, input.path ?? '.');
  if (!where.ok) return textResult(where.error, true);
  if (!where.exists) return textResult(`no such directory: ${where.relative}`, true);
  if (!(await stat(where.absolute)).isDirectory()) return textResult(`${where.relative} is a file, not a directory`, true);

  const max = options.maxListEntries ?? DEFAULT_MAX_ENTRIES;
  const lines: string[] = [];
  const prefix = where.relative === '.' ? '' : `${where.relative}/`;
  const complete = await walk(where.absolute, prefix, input.recursive === true, lines, max);
  if (lines.length === 0) return textResult(`${where.relative} is empty`);
  if (!complete) lines.push(`[listing stopped after ${max} entries]`);
  return textResult(lines.join('\n'));
}

/** Depth-first, names sorted per folder, so children follow their folder. Returns false when cut short. */
async function walk(dir: string, prefix: string, recursive: boolean, out: string[], max: number): Promise<boolean> {
  const dirents = await readdir(dir, { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const d of dirents) {
    if (out.length >= max) return false;
    const rel = `${prefix}${d.name}`;
    if (d.isSymbolicLink()) {
      // Never followed: a link may lead outside the workspace or into a cycle.
      out.push(`${rel} (symbolic link)`);
    } else if (d.isDirectory()) {
      out.push(`${rel}/`);
      if (recursive && !(await walk(path.join(dir, d.name), `${rel}/`, true, out, max))) return false;
    } else if (d.isFile()) {
      const size = await stat(path.join(dir, d.name)).then((s) => s.size, () => undefined);
      out.push(size === undefined ? rel : `${rel} (${size} bytes)`);
    } else {
      out.push(`${rel} (special file)`);
    }
  }
  return true;
}
