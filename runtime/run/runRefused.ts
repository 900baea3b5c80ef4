// The one exception the run entry points throw for a reason the user can act on; the CLI turns it
// into a message and an exit code by its kind.

/**
 * Why a run cannot start or continue, for a reason the user can act on (the message says how):
 * `state` — the run's own state (held by another process, failed, its workspace unusable);
 * `usage` — what the caller gave (a config that changed, a mission not in it, an unknown run).
 */
export type RefusalKind = 'state' | 'usage';

export class RunRefused extends Error {
  constructor(
    message: string,
    readonly kind: RefusalKind = 'state',
    /** Set when the run failed and `--retry-failed` would continue it. */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'RunRefused';
  }
}

/** A run refused because another live process is executing it (a state, not a mistake: try again later). */
export class RunBusy extends RunRefused {
  constructor(message: string) {
    super(message, 'state');
    this.name = 'RunBusy';
  }
}
