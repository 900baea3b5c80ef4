// `builtins.files.{read,list}`: text files inside the run's workspace directory only. Every name is
// opened through the folder opened before it (workspaceWalk.ts), so what is checked is what is read.
// Reads and listings are bounded so a large file or tree cannot flood the model's context. Writes
// are in fileWrite.ts.

import { constants } from 'node:fs';
import { lstat, open, readdir, type FileHandle } from 'node:fs/promises';

import type { ToolContext, ToolResult } from '../types.js';
import { textResult } from '../types.js';
import { FOLLOW, Workspace, type Folder, type WalkProblem, type WorkspaceOptions } from './workspaceWalk.js';
import { parseWorkspacePath } from './workspacePaths.js';

export interface FilesOptions extends WorkspaceOptions {
  /** Upper bound for a read, whatever `max_bytes` asks (default 1 MiB). */
  maxReadBytes?: number;
  /** Entries shown by a listing before it stops (default 1000). */
  maxListEntries?: number;
}

const DEFAULT_MAX_READ = 1024 * 1024;
const DEFAULT_MAX_ENTRIES = 1000;
/** Bytes inspected for a NUL to tell binary files from text. */
const BINARY_SNIFF = 8192;
/** O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused once opened. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The one message per walk problem, shared by the file tools. */
export function walkError(problem: WalkProblem, requested: string, display: string, missing: string): string {
  switch (problem) {
    case 'outside':
      return `path "${requested}" resolves outside the workspace directory (through a symbolic link)`;
    case 'missing':
      return `${missing}: ${display}`;
    case 'not-folder':
      return `path "${requested}" goes through a file that is not a directory`;
    case 'loop':
      return `path "${requested}" goes through too many symbolic links`;
  }
}

/**
 * Runs `body` with the workspace open, closing every descriptor it opened afterwards. An I/O error
 * (a folder without permission, a full disk) becomes a result naming the path the model gave, not
 * the descriptor path the walker used.
 */
export async function withWorkspace(
  ctx: ToolContext,
  options: WorkspaceOptions,
  what: string,
  body: (ws: Workspace) => Promise<ToolResult>,
): Promise<ToolResult> {
  const ws = await Workspace.open(ctx.workspaceDir, options);
  if (!(ws instanceof Workspace)) return textResult(ws.error, true);
  try {
    return await body(ws);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e.code !== 'string') throw err;
    // Node's message is "CODE: description, syscall 'path'": keep the description only.
    const description = (e.message.split(',')[0] ?? e.code).replace(/^[A-Z]+: /, '');
    return textResult(`could not ${what}: ${description} (${e.code})`, true);
  } finally {
    await ws.close();
  }
}

export async function readFileTool(input: { path: string; max_bytes?: number }, ctx: ToolContext, options: FilesOptions = {}): Promise<ToolResult> {
  const where = parseWorkspacePath(input.path);
  if (!where.ok) return textResult(where.error, true);
  const { display } = where;
  return withWorkspace(ctx, options, `read ${display}`, async (ws) => {
    const walked = await ws.walk(where.names, {
      leaf: async (folder, name) => {
        try {
          return await open(ws.entry(folder, name), READ_FLAGS);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ELOOP') return FOLLOW;
          if (code === 'ENOENT') return 'missing' as const;
          throw err;
        }
      },
    });
    if (!walked.ok) return textResult(walkError(walked.problem, input.path, display, 'no such file'), true);
    const handle = walked.value;
    if (handle === undefined) return textResult(`${display} is a directory; use builtins_files_list to see its contents`, true);
    if (handle === 'missing') return textResult(`no such file: ${display}`, true);
    try {
      return await readOpened(handle, display, Math.min(input.max_bytes ?? Number.POSITIVE_INFINITY, options.maxReadBytes ?? DEFAULT_MAX_READ));
    } finally {
      await handle.close();
    }
  });
}

async function readOpened(handle: FileHandle, display: string, limit: number): Promise<ToolResult> {
  const info = await handle.stat();
  if (info.isDirectory()) return textResult(`${display} is a directory; use builtins_files_list to see its contents`, true);
  if (!info.isFile()) return textResult(`${display} is not a regular file`, true);
  const wanted = Math.min(limit, info.size);
  const buffer = Buffer.alloc(wanted);
  let read = 0;
  while (read < wanted) {
    const { bytesRead } = await handle.read(buffer, read, wanted - read, read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  const bytes = buffer.subarray(0, read);
  if (bytes.subarray(0, BINARY_SNIFF).includes(0)) {
    return textResult(`${display} looks like a binary file (${info.size} bytes); only text files can be read`, true);
  }
  let text = bytes.toString('utf8');
  if (info.size > read) text += `\n\n[truncated: ${display} is ${info.size} bytes; showing the first ${read}]`;
  return textResult(text);
}

export async function listFilesTool(input: { path?: string; recursive?: boolean }, ctx: ToolContext, options: FilesOptions = {}): Promise<ToolResult> {
  const requested = input.path ?? '.';
  const where = parseWorkspacePath(requested);
  if (!where.ok) return textResult(where.error, true);
  const { display } = where;
  return withWorkspace(ctx, options, `list ${display}`, async (ws) => {
    const walked = await ws.walk(where.names);
    if (!walked.ok) {
      if (walked.problem === 'not-folder' && where.names.length > 0) {
        // The last name is a file: say so rather than "goes through a file".
        const parent = await ws.walk(where.names.slice(0, -1));
        if (parent.ok) return textResult(`${display} is a file, not a directory`, true);
      }
      return textResult(walkError(walked.problem, requested, display, 'no such directory'), true);
    }
    const max = options.maxListEntries ?? DEFAULT_MAX_ENTRIES;
    const lines: string[] = [];
    const complete = await listFolder(ws, walked.folder, display === '.' ? '' : `${display}/`, input.recursive === true, lines, max);
    if (lines.length === 0) return textResult(`${display} is empty`);
    if (!complete) lines.push(`[listing stopped after ${max} entries]`);
    return textResult(lines.join('\n'));
  });
}

/** Depth-first, names sorted per folder, so children follow their folder. Returns false when cut short. */
async function listFolder(ws: Workspace, folder: Folder, prefix: string, recursive: boolean, out: string[], max: number): Promise<boolean> {
  const dirents = await readdir(ws.folderPath(folder), { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const d of dirents) {
    if (out.length >= max) return false;
    const rel = `${prefix}${d.name}`;
    if (d.isSymbolicLink()) {
      // Never followed: a link may lead outside the workspace or into a cycle.
      out.push(`${rel} (symbolic link)`);
    } else if (d.isDirectory()) {
      out.push(`${rel}/`);
      if (!recursive) continue;
      // Opened like any other name: a folder swapped for a link since readdir is not entered.
      const step = await ws.openFolder(folder, d.name);
      if (step.kind !== 'folder') continue;
      try {
        if (!(await listFolder(ws, step.folder, `${rel}/`, true, out, max))) return false;
      } finally {
        await ws.release(step.folder);
      }
    } else if (d.isFile()) {
      const size = await lstat(ws.entry(folder, d.name)).then((s) => (s.isFile() ? s.size : undefined), () => undefined);
      out.push(size === undefined ? rel : `${rel} (${size} bytes)`);
    } else {
      out.push(`${rel} (special file)`);
    }
  }
  return true;
}
