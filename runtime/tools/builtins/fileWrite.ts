// `builtins.files.write`: replaces (or appends to) a text file inside the run's workspace. Missing
// folders are created one at a time inside the folder opened before them, and the new content goes
// to a temporary file in the destination's folder, held open by descriptor, which is then renamed
// over the name. So nothing outside the workspace is ever created or truncated, whatever is swapped
// in meanwhile, and a reader sees either the old content or the new, never half of it: every byte is
// written (a write that takes fewer, as on a full disk or at a quota, is continued, and one that
// takes none fails the call with the old file left as it was), and the file is flushed to disk
// before the rename, the folder after it, so a power loss keeps that promise too.

import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';

import type { ToolContext, ToolResult } from '../types.js';
import { textResult } from '../types.js';
import { walkError, withWorkspace } from './files.js';
import { parseWorkspacePath } from './workspacePaths.js';
import { FOLLOW, type Folder, type Workspace, type WorkspaceOptions } from './workspaceWalk.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
const COPY_FLAGS = constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0);
const COPY_CHUNK = 64 * 1024;

type Outcome = { error: string } | { written: number };

/**
 * Runs writes to the same file one after another. Calls of one model turn run concurrently, and
 * an append copies the file before renaming the copy over it: two appends at once would otherwise
 * both start from the old content and one would be lost.
 */
export class WriteQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const next = (this.tails.get(key) ?? Promise.resolve()).then(job, job);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

export interface WriteOptions extends WorkspaceOptions {
  /** Shared by the run's write calls; without it, writes are not ordered. */
  writes?: WriteQueue;
}

export async function writeFileTool(
  input: { path: string; content: string; append?: boolean },
  ctx: ToolContext,
  options: WriteOptions = {},
): Promise<ToolResult> {
  const where = parseWorkspacePath(input.path);
  if (!where.ok) return textResult(where.error, true);
  const { display } = where;
  if (where.names.length === 0) return textResult('give a file path, not the workspace directory itself', true);
  const data = Buffer.from(input.content, 'utf8');
  return withWorkspace(ctx, options, `write ${display}`, async (ws) => {
    const walked = await ws.walk<Outcome>(where.names, {
      create: true,
      leaf: async (folder, name) => {
        const write = () => replaceFile(ws, folder, name, data, input.append === true, display);
        if (!options.writes) return write();
        // Keyed by the folder's identity, so two paths reaching one file through links share a turn.
        const { dev, ino } = await folder.handle.stat();
        return options.writes.run(`${dev}:${ino}/${name}`, write);
      },
    });
    if (!walked.ok) return textResult(walkError(walked.problem, input.path, display, 'no such file'), true);
    const outcome = walked.value;
    if (outcome === undefined) return textResult(`${display} is a directory; give a file path`, true);
    if ('error' in outcome) return textResult(outcome.error, true);
    return textResult(`${input.append ? 'Appended' : 'Wrote'} ${outcome.written} bytes to ${display}`);
  });
}

async function replaceFile(ws: Workspace, folder: Folder, name: string, data: Buffer, append: boolean, display: string): Promise<Outcome | typeof FOLLOW> {
  const target = ws.entry(folder, name);
  const existing = await lstat(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (existing?.isSymbolicLink()) return FOLLOW;
  if (existing?.isDirectory()) return { error: `${display} is a directory; give a file path` };
  if (existing && !existing.isFile()) return { error: `${display} is not a regular file` };

  const tempName = `.squadron-write-${randomBytes(8).toString('hex')}.tmp`;
  const temp = ws.entry(folder, tempName);
  const handle = await open(temp, TEMP_FLAGS, 0o644);
  let renamed = false;
  try {
    try {
      if (append && existing) {
        const copied = await copyInto(ws.entry(folder, name), handle);
        if (copied === FOLLOW) return FOLLOW;
        if (copied !== undefined) return { error: copied };
      }
      await writeAll(handle, data);
      // The replaced file keeps its permissions; a new one gets 0644 less the umask.
      if (existing) await handle.chmod(existing.mode & 0o7777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Both names are inside the folder held open: the rename cannot land anywhere else.
    await rename(temp, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
  await syncFolder(folder);
  return { written: data.byteLength };
}

/** Writes every byte at the handle's position, or throws (a write(2) may take fewer bytes than given). */
async function writeAll(handle: FileHandle, data: Uint8Array, length = data.byteLength): Promise<void> {
  let offset = 0;
  while (offset < length) {
    const { bytesWritten } = await handle.write(data, offset, length - offset);
    if (bytesWritten <= 0) throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}

/** Makes the rename durable; a file system that cannot flush a folder (EINVAL) has nothing to flush. */
async function syncFolder(folder: Folder): Promise<void> {
  try {
    await folder.handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EBADF') throw err;
  }
}

/** Copies the current file into the temporary one; a message when it is no longer a regular file. */
async function copyInto(source: string, into: FileHandle): Promise<string | typeof FOLLOW | undefined> {
  let from;
  try {
    from = await open(source, COPY_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return FOLLOW;
    if (code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const info: Stats = await from.stat();
    if (!info.isFile()) return 'the file changed into something else than a regular file while being appended to';
    const buffer = Buffer.alloc(COPY_CHUNK);
    for (;;) {
      const { bytesRead } = await from.read(buffer, 0, COPY_CHUNK, null);
      if (bytesRead === 0) return undefined;
      await writeAll(into, buffer, bytesRead);
    }
  } finally {
    await from.close();
  }
}
