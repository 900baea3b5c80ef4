// Which folder a run's workspace is. A run records its workspace's identity when it is created; a
// resume compares it with the folder now at that path, so a workspace deleted (or replaced by
// another folder) since the run last ran is refused instead of silently continued on an empty one —
// the run's finished tasks and its ledger speak of files that would no longer be there. The identity
// is the folder's inode and birth time: a folder made again at the same path has a new birth time
// (and, mostly, a new inode); a copy or a restore is a new folder too, accepted with a flag.

import { statSync } from 'node:fs';
import type { WorkspaceIdentity } from '../../store/index.js';
import { RunRefused } from './runRefused.js';

/** The folder's identity, or undefined when nothing is there. */
export function workspaceIdentity(dir: string): WorkspaceIdentity | undefined {
  try {
    const s = statSync(dir, { bigint: true });
    return { dev: String(s.dev), ino: String(s.ino), born: String(s.birthtimeNs) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export const ACCEPT_NEW_WORKSPACE_FLAG = '--accept-new-workspace';

/**
 * What a resume finds at the run's workspace path. Refuses a folder that is gone or is not the
 * run's (unless `accept`); returns the identity to record when one is to be (an accepted new
 * folder — `created` when it is to be made — or a run stored before identities were recorded).
 */
export function checkWorkspace(
  run: { id: string; workspace?: WorkspaceIdentity | undefined },
  dir: string,
  accept: boolean,
): { record?: 'current' | 'created'; note?: string } {
  const now = workspaceIdentity(dir);
  const how = `restore it, or resume with ${ACCEPT_NEW_WORKSPACE_FLAG} to continue the run in ${now === undefined ? 'a new empty one' : 'this one'} (its finished tasks and tool calls are kept, the files they wrote are not there)`;
  if (now === undefined) {
    if (!accept) throw new RunRefused(`the workspace of run ${run.id} is gone: ${dir} does not exist (deleted or moved); ${how}`, 'usage');
    return { record: 'created', note: `run ${run.id} continues in a new empty workspace at ${dir} (${ACCEPT_NEW_WORKSPACE_FLAG})` };
  }
  if (run.workspace === undefined) return { record: 'current' };
  if (sameFolder(run.workspace, now)) return {};
  if (!accept) throw new RunRefused(`the workspace of run ${run.id} was replaced: ${dir} is not the folder the run worked in (another folder was made or put at that path since); ${how}`, 'usage');
  return { record: 'current', note: `run ${run.id} continues in the folder now at ${dir}, not the one it worked in (${ACCEPT_NEW_WORKSPACE_FLAG})` };
}

function sameFolder(a: WorkspaceIdentity, b: WorkspaceIdentity): boolean {
  // Birth times compared only where both file systems record one.
  return a.ino === b.ino && (a.born === '0' || b.born === '0' || a.born === b.born);
}
