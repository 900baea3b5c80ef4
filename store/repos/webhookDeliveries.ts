// Webhook deliveries `squadron serve` has seen (see migration 0019): claimed first, so two servers
// given the same delivery start one run. Accepted deliveries whose run may not be stored yet (see
// migration 0021): written before the 202, deleted once the run is stored, started by the next server
// after a crash.

export type DeliveryKind = 'key' | 'signature';

export interface WebhookDeliveriesRepo {
  /** true when this process claimed it now; false when it was seen before. */
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
  /** Accepted deliveries still waiting for their run, oldest first. */
  pending(): Promise<AcceptedDelivery[]>;
  /** The run of an accepted delivery is stored (or will never be): forget the row. */
  settle(runId: string): Promise<void>;
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
