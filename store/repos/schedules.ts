// Schedule fires and pauses of `squadron serve` (migration 0023): a fire is claimed once per schedule
// and time across every server of the database.

export interface ScheduleFire {
  fireAt: string;
  runId?: string;
}

export interface SchedulesRepo {
  /** true when this process claimed the fire now; false when another did. */
  claimFire(scheduleId: string, fireAt: string): Promise<boolean>;
  setFireRun(scheduleId: string, fireAt: string, runId: string): Promise<void>;
  /** Gives a claimed fire back while it has no run (its server drained before starting it): another server may claim it. */
  releaseFire(scheduleId: string, fireAt: string): Promise<void>;
  /** The newest fires first. */
  recentFires(scheduleId: string, limit: number): Promise<ScheduleFire[]>;
  pause(scheduleId: string, reason: string): Promise<void>;
  unpause(scheduleId: string): Promise<boolean>;
  /** Paused schedule ids with why. */
  paused(): Promise<Map<string, string>>;
}
