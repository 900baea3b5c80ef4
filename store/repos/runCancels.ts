// Requests to stop a run (see migration 0021): recorded by whoever asks (the server's API), read by
// whichever process drives the run, at its lease heartbeat, so a cancel reaches a run wherever it runs.

export interface RunCancelsRepo {
  /** Records the request (a second one keeps the first). */
  request(runId: string, by: string): Promise<void>;
  /** Whether a stop was asked for and not cleared since. */
  requested(runId: string): Promise<boolean>;
  /** Forgets the request: the run was stopped, or is continued on purpose (resume). */
  clear(runId: string): Promise<void>;
}
