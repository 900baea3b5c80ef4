// Opens names inside the run's workspace without a check-then-use race. Each name is opened inside
// the folder opened just before it, through that folder's descriptor (`/proc/self/fd/<fd>/<name>`)
// and with O_NOFOLLOW, so the check *is* the open: a folder swapped for a symbolic link after it was
// looked at cannot redirect an open, a mkdir or a rename. Symbolic links inside the workspace are
// followed by reading them and walking their target the same way; one that leads out is refused.
// Without /proc/self/fd (not Linux) names are joined into path strings instead: the same rules, but
// a folder swapped between two steps can redirect the next one (see docs/concepts/workspace.md).

import { constants } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

import { isInside } from './workspacePaths.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | NOFOLLOW;
/** Links followed (and retries after a name changed under us) before giving up, as the kernel's ELOOP. */
const MAX_STEPS = 40;

/** A folder of the workspace, held open. */
export interface Folder {
  readonly handle: FileHandle;
  /** Its path by names; used for opening only when descriptor paths are unavailable. */
  readonly path: string;
}

/** Returned by a leaf callback when the name is a symbolic link: the walker reads it and walks its target. */
export const FOLLOW: unique symbol = Symbol('follow');
export type Leaf<T> = (folder: Folder, name: string) => Promise<T | typeof FOLLOW>;

export type WalkProblem = 'outside' | 'missing' | 'not-folder' | 'loop';
/** `value` is undefined when the path ends at a folder (no name left for the leaf callback). */
export type Walked<T> = { ok: true; folder: Folder; value: T | undefined } | { ok: false; problem: WalkProblem };

type Step = { kind: 'folder'; folder: Folder } | { kind: 'link'; target: string } | { kind: 'missing' } | { kind: 'not-folder' } | { kind: 'retry' };

export interface WorkspaceOptions {
  /** false forces the path-string fallback (tests of the fallback); default: use /proc/self/fd when it works. */
  descriptorPaths?: boolean;
  /** Remembers which folder each workspace path was the first time, so a swapped-in one is refused. */
  pins?: WorkspacePins;
}

/**
 * The identity (device and inode) each workspace path had when a run's file tools first opened it.
 * The workspace path itself is trusted, but only as the folder it was: one replaced mid-run (by a
 * link to elsewhere, say) is refused rather than followed.
 */
export class WorkspacePins {
  private readonly seen = new Map<string, string>();

  /** True when `dir` is the folder it was the first time (or this is the first time). */
  same(dir: string, info: { dev: number; ino: number }): boolean {
    const id = `${info.dev}:${info.ino}`;
    const first = this.seen.get(dir);
    if (first === undefined) this.seen.set(dir, id);
    return first === undefined || first === id;
  }
}

export class Workspace {
  private readonly open = new Set<FileHandle>();

  private constructor(
    readonly root: Folder,
    /** Absolute spellings of the root that an absolute link target may start with. */
    private readonly rootNames: readonly string[],
    private readonly viaDescriptors: boolean,
  ) {
    this.open.add(root.handle);
  }

  /** Opens the workspace folder itself (trusted: it is the run's, so links in its own path are fine). */
  static async open(dir: string, options: WorkspaceOptions = {}): Promise<Workspace | { error: string }> {
    let handle: FileHandle;
    try {
      handle = await open(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
    } catch {
      return { error: `the workspace directory ${dir} does not exist` };
    }
    try {
      if (options.pins && !options.pins.same(dir, await handle.stat())) {
        await handle.close();
        return { error: `the workspace directory ${dir} was replaced by another folder since the run started; refusing to use it` };
      }
      const real = await realpath(dir);
      const viaDescriptors = options.descriptorPaths !== false && (await descriptorPathsWork(handle));
      return new Workspace({ handle, path: real }, [real, path.resolve(dir)], viaDescriptors);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** A path naming `name` inside `folder` that no change elsewhere in the tree can redirect. */
  entry(folder: Folder, name: string): string {
    return this.viaDescriptors ? `/proc/self/fd/${folder.handle.fd}/${name}` : path.join(folder.path, name);
  }

  /** A path naming `folder` itself (for readdir). */
  folderPath(folder: Folder): string {
    return this.viaDescriptors ? `/proc/self/fd/${folder.handle.fd}` : folder.path;
  }

  /**
   * Walks `names` from the root, one folder at a time. Every name but the last must be a folder
   * (created when `create` is set); the last goes to `leaf`, or is opened as a folder too when no
   * leaf is given. Symbolic links are followed only while they stay inside the workspace.
   */
  async walk<T>(names: readonly string[], options: { create?: boolean; leaf?: Leaf<T> } = {}): Promise<Walked<T>> {
    const stack: Folder[] = [this.root];
    const pending = [...names];
    let steps = 0;
    const top = (): Folder => stack[stack.length - 1]!;
    const spend = (): boolean => ++steps > MAX_STEPS;
    while (pending.length > 0) {
      const name = pending.shift()!;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (stack.length === 1) return { ok: false, problem: 'outside' };
        stack.pop();
        continue;
      }
      if (pending.length === 0 && options.leaf) {
        const value = await options.leaf(top(), name);
        if (value !== FOLLOW) return { ok: true, folder: top(), value };
        if (spend()) return { ok: false, problem: 'loop' };
        const target = await readlink(this.entry(top(), name)).catch(() => undefined);
        // The link vanished between the leaf's look and ours: look again.
        if (target === undefined) pending.unshift(name);
        else if (!this.splice(target, stack, pending)) return { ok: false, problem: 'outside' };
        continue;
      }
      const step = await this.openFolder(top(), name);
      switch (step.kind) {
        case 'folder':
          stack.push(step.folder);
          break;
        case 'link':
          if (spend()) return { ok: false, problem: 'loop' };
          if (!this.splice(step.target, stack, pending)) return { ok: false, problem: 'outside' };
          break;
        case 'missing':
          if (!options.create) return { ok: false, problem: 'missing' };
          if (spend()) return { ok: false, problem: 'loop' };
          // Created inside the folder already held open, then opened (and so checked) like any other.
          await mkdir(this.entry(top(), name)).catch((err: NodeJS.ErrnoException) => {
            if (err.code !== 'EEXIST') throw err;
          });
          pending.unshift(name);
          break;
        case 'retry':
          if (spend()) return { ok: false, problem: 'loop' };
          pending.unshift(name);
          break;
        case 'not-folder':
          return { ok: false, problem: 'not-folder' };
      }
    }
    return { ok: true, folder: top(), value: undefined };
  }

  /** Opens `name` inside `parent` as a folder, never following a link. */
  async openFolder(parent: Folder, name: string): Promise<Step> {
    const entry = this.entry(parent, name);
    try {
      const handle = await open(entry, FOLDER_FLAGS);
      this.open.add(handle);
      return { kind: 'folder', folder: { handle, path: path.join(parent.path, name) } };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      if (code !== 'ELOOP' && code !== 'ENOTDIR') throw err;
    }
    // Not a folder: a link (O_NOFOLLOW refused it) or some other kind of file.
    const info = await lstat(entry).catch(() => undefined);
    if (info === undefined || info.isDirectory()) return { kind: 'retry' };
    if (!info.isSymbolicLink()) return { kind: 'not-folder' };
    const target = await readlink(entry).catch(() => undefined);
    return target === undefined ? { kind: 'retry' } : { kind: 'link', target };
  }

  /** Closes a folder opened by walk or openFolder before the workspace itself is closed. */
  async release(folder: Folder): Promise<void> {
    if (folder === this.root || !this.open.delete(folder.handle)) return;
    await folder.handle.close();
  }

  async close(): Promise<void> {
    const handles = [...this.open];
    this.open.clear();
    await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
  }

  /** Puts a link's target in front of the names still to walk; false when it leads out. */
  private splice(target: string, stack: Folder[], pending: string[]): boolean {
    let relative = target;
    if (path.isAbsolute(target)) {
      const root = this.rootNames.find((r) => isInside(r, target));
      if (root === undefined) return false;
      relative = path.relative(root, target);
      stack.length = 1;
    }
    pending.unshift(...relative.split(path.sep));
    return true;
  }
}

/** /proc/self/fd/<fd> must name the very folder the descriptor holds (Linux with /proc mounted). */
async function descriptorPathsWork(handle: FileHandle): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  try {
    const [viaProc, held] = await Promise.all([stat(`/proc/self/fd/${handle.fd}`), handle.stat()]);
    return viaProc.ino === held.ino && viaProc.dev === held.dev;
  } catch {
    return false;
  }
}
