// What `squadron serve` keeps beside its runs and `squadron runs prune` clears (migrations 0019,
// 0021, 0022): the delivery log, idempotency keys and signatures seen, schedule fires, cancel
// requests, and accepted deliveries whose run is stored. A row goes only once nothing relies on it:
// its run is gone (or pruned with it) and it is older than the age given; a key or a signature not
// before its own window ends; a delivery whose run is still to start, and each schedule's last fire,
// never.

export interface HistoryPrunePolicy {
  /** ISO-8601 UTC: log entries and schedule fires written before this may go. */
  before: string;
  /** ISO-8601 UTC: idempotency keys claimed before this may go (never later than the key window allows). */
  keysBefore: string;
  /** ISO-8601 UTC: signatures seen before this may go (never while a replay could still check). */
  signaturesBefore: string;
  /** The runs pruned with this call (still stored while it runs): their rows count as orphaned. */
  goneRuns: readonly string[];
  /** Count what would go; delete nothing. */
  dryRun: boolean;
}

/** Rows of each kind pruned (or, dry, that would be). */
export interface HistoryPruned {
  deliveryLog: number;
  idempotencyKeys: number;
  signatures: number;
  scheduleFires: number;
  runCancels: number;
  startedDeliveries: number;
}

export interface ServiceHistoryRepo {
  prune(policy: HistoryPrunePolicy): Promise<HistoryPruned>;
}
