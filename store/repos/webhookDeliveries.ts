// Webhook deliveries `squadron serve` has seen (see migration 0019): claimed first, so two servers
// given the same delivery start one run. Accepted deliveries whose run may not be stored yet (see
// migration 0021): written before the 202, deleted once the run is stored, started by the next server
// after a crash. What became of each authenticated delivery (see migration 0022), for the console.

export type DeliveryKind = 'key' | 'signature';

/**
 * A claim with no run after this long was abandoned: a server of an earlier version claimed first and
 * stored the delivery in a second transaction, and died in between (claims are now made in the
 * delivery's own transaction, so none is left without its run). A later delivery with the same key
 * takes it over instead of hearing `409 in_progress` until the key is pruned.
 */
export const CLAIM_ABANDONED_MS = 5 * 60_000;

export interface WebhookDeliveriesRepo {
  /** true when this process claimed it now (or took over a claim abandoned, CLAIM_ABANDONED_MS); false when it was seen before. */
  claim(path: string, kind: DeliveryKind, value: string): Promise<boolean>;
  setRun(path: string, kind: DeliveryKind, value: string, runId: string): Promise<void>;
  /** Forgets a claim whose run could not start (the sender may deliver again). */
  release(path: string, kind: DeliveryKind, value: string): Promise<void>;
  /** The run a claimed delivery started: null while it starts, undefined when never seen. */
  runOf(path: string, kind: DeliveryKind, value: string): Promise<string | null | undefined>;
  /** Records an accepted delivery whose run (with this id) is still to be stored. */
  accept(d: AcceptedDelivery): Promise<void>;
  /** Whether `runId` is an accepted delivery's run still to be stored. */
  isAccepted(runId: string): Promise<boolean>;
  /** Deliveries accepted before `acceptedBefore` (an ISO time) still waiting for their run, oldest first. */
  pending(acceptedBefore: string): Promise<AcceptedDelivery[]>;
  /** The run of an accepted delivery is stored (or will never be): forget the row. */
  settle(runId: string): Promise<void>;
  /** Writes what became of a delivery (never its signature, key or secret). */
  log(entry: DeliveryLogEntry): Promise<void>;
  /** An accepted delivery whose run's start was refused after its 202: its entry says so. */
  refuseStarted(runId: string, reason: string): Promise<void>;
  /** The last `limit` deliveries to a trigger path, newest first, with their run's status now. */
  recent(path: string, limit: number): Promise<LoggedDelivery[]>;
}

export type DeliveryOutcome = 'accepted' | 'duplicate' | 'replayed' | 'refused';

export interface DeliveryLogEntry {
  path: string;
  mission: string;
  outcome: DeliveryOutcome;
  /** The run it started (accepted) or answered (duplicate, replayed). */
  runId?: string;
  /** Why it was refused. */
  reason?: string;
}

export interface LoggedDelivery extends DeliveryLogEntry {
  /** ISO-8601 UTC. */
  createdAt: string;
  /** The status of its run as stored now; absent while (or when never) stored. */
  runStatus?: string;
  /** Accepted and still waiting for its run to be stored. */
  starting: boolean;
}

export interface AcceptedDelivery {
  runId: string;
  path: string;
  mission: string;
  inputs: Record<string, string>;
  /** ISO-8601 UTC. */
  createdAt: string;
}

/** The stored inputs text back as the inputs it was made from. */
export function parseDeliveryInputs(text: string): Record<string, string> {
  const parsed = JSON.parse(text) as unknown;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
