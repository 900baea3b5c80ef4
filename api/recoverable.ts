// Runs that crashed: stored `running` while no live process holds their lease (killed, machine
// restarted). A run a person stopped is stored `interrupted` and never listed here; a run queued for
// PostgreSQL workers is theirs, and a chat is its person's.

import { hostname } from 'node:os';
import { chatAgentOf } from '../core/chatRuns.js';
import type { Store } from '../store/index.js';

/** Ids of the crashed runs of `store`, oldest first. */
export async function recoverableRuns(store: Store, opts: { limit?: number } = {}): Promise<string[]> {
  const out: string[] = [];
  for (const r of await store.runs.list({ limit: opts.limit ?? 10_000 })) {
    // A chat killed mid-reply is continued by a person (`chat --resume`), not by the server.
    if (r.status !== 'running' || chatAgentOf(r.mission) !== undefined) continue;
    const unit = (await store.units?.list(r.id))?.find((u) => u.kind === 'run');
    if (unit?.state === 'queued') continue;
    if (await store.leases.isLive(r.id, hostname())) continue;
    out.push(r.id);
  }
  return out.reverse();
}
