// Runs that crashed: stored `running` while no live process holds their lease (killed, machine
// restarted). A run a person stopped is stored `interrupted` and never listed here; a run queued for
// PostgreSQL workers is theirs, and a chat is its person's.

import { hostname } from 'node:os';
import { chatAgentOf } from '../core/chatRuns.js';
import type { Store } from '../store/index.js';

/** Ids of the crashed runs of `store`, oldest first. */
export async function recoverableRuns(store: Store, opts: { limit?: number } = {}): Promise<string[]> {
  const out: string[] = [];
  // Only the runs stored `running` are read: a server runs this every few seconds, on a database
  // that may hold years of finished runs.
  for (const { id, mission } of await store.runs.listRunning(opts.limit ?? 10_000)) {
    // A chat killed mid-reply is continued by a person (`chat --resume`), not by the server.
    if (chatAgentOf(mission) !== undefined) continue;
    const unit = (await store.units?.list(id))?.find((u) => u.kind === 'run');
    if (unit?.state === 'queued') continue;
    if (await store.leases.isLive(id, hostname())) continue;
    out.push(id);
  }
  return out;
}
