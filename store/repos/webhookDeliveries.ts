// Webhook deliveries `squadron serve` has seen (see migration 0023): claimed first, so two servers
// given the same delivery start one run.

export type DeliveryKind = 'key' | 'signature';

export interface WebhookDeliveriesRepo {
  /** true when this process claimed it now; false when it was seen before. */
  claim(path: string, kind: DeliveryKind, value: string): Promise<boolean>;
  setRun(path: string, kind: DeliveryKind, value: string, runId: string): Promise<void>;
  /** Forgets a claim whose run could not start (the sender may deliver again). */
  release(path: string, kind: DeliveryKind, value: string): Promise<void>;
  /** The run a claimed delivery started: null while it starts, undefined when never seen. */
  runOf(path: string, kind: DeliveryKind, value: string): Promise<string | null | undefined>;
}
