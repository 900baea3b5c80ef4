// Fires the missions' schedules while the server runs. Each fire is claimed in the database first
// (one row per schedule and time), so several servers on one database start one run per fire. The
// policies: `overlap` (skip, buffer_one, allow) against the schedule's runs still in flight here,
// `catchup_window` (the last fire missed while no server ran is made up once at start),
// `pause_on_failure`. Times come from the server's clock (injectable for tests).

import { newRunId, nextFires, SquadronError, type LoadedProject, type Mission, type RunStore, type Schedule } from '../api/index.js';
import { errorText, type Log } from './log.js';
import { DrainingError, type RunPool } from './runPool.js';
import { retrying } from './retry.js';

export interface ScheduledEntry {
  id: string;
  mission: Mission;
  schedule: Schedule;
}

export function scheduleEntries(project: LoadedProject): ScheduledEntry[] {
  return project.graph.missions.flatMap((mission) => mission.schedules.map((schedule) => ({ id: `${mission.name}.${schedule.index}`, mission, schedule })));
}

interface Live {
  cron: string;
  timezone: string;
  nextAt: number;
  /** Runs of this schedule started here and not ended. */
  running: number;
  /** buffer_one: a fire waiting for the running one to end. */
  buffered?: string;
}

export class Scheduler {
  private readonly live = new Map<string, Live>();
  private ticking = false;

  constructor(
    /** `stop`: aborted when the server drains (store calls that fail are tried again until then). */
    private readonly deps: { store: RunStore; runner: RunPool; project: () => LoadedProject; now: () => number; log: Log; stop: AbortSignal },
  ) {}

  /** One pass: fire what is due. Called every few hundred ms; passes never overlap. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const now = this.deps.now();
      const paused = await this.deps.store.schedules.paused();
      for (const entry of scheduleEntries(this.deps.project())) {
        const { id, schedule } = entry;
        let live = this.live.get(id);
        if (!live || live.cron !== schedule.cron || live.timezone !== schedule.timezone) {
          const fresh: Live = { cron: schedule.cron, timezone: schedule.timezone, nextAt: next(schedule, now), running: live?.running ?? 0 };
          this.live.set(id, fresh);
          if (!live) await this.catchUp(entry, fresh, now, paused.has(id));
          live = fresh;
        }
        if (now < live.nextAt) continue;
        const fireAt = new Date(live.nextAt).toISOString();
        // The fire is done (claimed and started, its store calls tried again while the database is
        // busy) before the next is due. Fires missed meanwhile (a slow pass, a database held for long,
        // a suspended machine) are not made up one by one.
        if (!paused.has(id)) await this.fire(entry, live, fireAt, 'schedule');
        live.nextAt = next(schedule, Math.max(now, this.deps.now()));
      }
    } catch (error) {
      this.deps.log('error', 'schedule pass failed', { error: errorText(error) });
    } finally {
      this.ticking = false;
    }
  }

  /** Fires the schedule now (the API's trigger-now), its overlap policy applied. */
  async triggerNow(entry: ScheduledEntry): Promise<{ runId: string } | { held: 'buffered' | 'skipped' } | undefined> {
    const live = this.live.get(entry.id) ?? { cron: entry.schedule.cron, timezone: entry.schedule.timezone, nextAt: next(entry.schedule, this.deps.now()), running: 0 };
    this.live.set(entry.id, live);
    const fireAt = `manual:${new Date(this.deps.now()).toISOString()}:${Math.random().toString(36).slice(2, 8)}`;
    const held = this.held(entry, live, fireAt);
    if (held) return { held };
    const runId = await this.start(entry, live, fireAt, false);
    return runId === undefined ? undefined : { runId };
  }

  /** The overlap policy: whether a fire waits (buffer_one) or is dropped (skip) because a run of it is going. */
  private held(entry: ScheduledEntry, live: Live, fireAt: string): 'buffered' | 'skipped' | undefined {
    if (live.running === 0 || entry.schedule.overlap === 'allow') return undefined;
    if (entry.schedule.overlap === 'buffer_one' && live.buffered === undefined) {
      live.buffered = fireAt;
      this.deps.log('info', 'schedule fire buffered', { schedule: entry.id, fire_at: fireAt });
      return 'buffered';
    }
    this.deps.log('info', 'schedule fire skipped: a run of it is still going', { schedule: entry.id, fire_at: fireAt });
    return 'skipped';
  }

  nextFire(id: string): number | undefined {
    return this.live.get(id)?.nextAt;
  }

  private async catchUp(entry: ScheduledEntry, live: Live, now: number, paused: boolean): Promise<void> {
    const { schedule } = entry;
    if (schedule.catchupWindowMs <= 0 || paused) return;
    const windowStart = new Date(now - schedule.catchupWindowMs);
    // The last fire time inside the window, if any: made up once, never once per missed fire.
    const missed = nextFires(schedule, windowStart, 10_000).filter((d) => d.getTime() <= now).at(-1);
    if (!missed) return;
    await this.fire(entry, live, missed.toISOString(), 'catch-up');
  }

  private async fire(entry: ScheduledEntry, live: Live, fireAt: string, why: string): Promise<void> {
    const claimed = await this.again('claiming a schedule fire', () => this.deps.store.schedules.claimFire(entry.id, fireAt), { schedule: entry.id, fire_at: fireAt });
    if (!claimed) {
      this.deps.log('info', 'schedule fire taken by another server', { schedule: entry.id, fire_at: fireAt });
      return;
    }
    if (this.held(entry, live, fireAt)) return;
    this.deps.log('info', 'schedule fired', { schedule: entry.id, fire_at: fireAt, why });
    await this.start(entry, live, fireAt, true);
  }

  /**
   * Starts the fire's run. A claimed fire (`retry`) is started again while its start fails for the
   * database, under the same run id, so it starts once; a trigger-now answers its caller instead.
   */
  private async start(entry: ScheduledEntry, live: Live, fireAt: string, retry: boolean): Promise<string | undefined> {
    live.running += 1;
    const runId = await newRunId();
    let attempts = 0;
    try {
      const begin = async (): Promise<string> => {
        attempts += 1;
        try {
          return await this.deps.runner.start(this.deps.project(), entry.mission.name, entry.schedule.inputs, (status) => void this.ended(entry, live, runId, status), runId);
        } catch (error) {
          // An earlier attempt stored the run before it failed: it is started (the recovery pass continues it).
          if (attempts > 1 && error instanceof SquadronError && error.code === 'run_busy' && (await this.deps.store.runs.get(runId))) {
            live.running -= 1;
            return runId;
          }
          throw error;
        }
      };
      if (retry) await this.again('starting a scheduled run', begin, { schedule: entry.id, fire_at: fireAt });
      else await begin();
      if (!fireAt.startsWith('manual:')) await this.again('recording a schedule fire', () => this.deps.store.schedules.setFireRun(entry.id, fireAt, runId), { schedule: entry.id, run_id: runId });
      return runId;
    } catch (error) {
      live.running -= 1;
      if (retry && (error instanceof DrainingError || this.deps.stop.aborted)) {
        await this.leaveForNextServer(entry, fireAt, runId);
        return undefined;
      }
      this.deps.log('error', 'scheduled run could not start', { schedule: entry.id, fire_at: fireAt, error: errorText(error) });
      return undefined;
    }
  }

  /**
   * The server drains before a claimed fire's run is stored (it waited for a run slot, say): the claim
   * is given back, so the next server's catch-up (inside `catchup_window`) makes the fire up; kept, it
   * would read as done. A run stored by an earlier attempt is recorded as the fire's instead.
   */
  private async leaveForNextServer(entry: ScheduledEntry, fireAt: string, runId: string): Promise<void> {
    const schedules = this.deps.store.schedules;
    try {
      if (await this.deps.store.runs.get(runId)) await schedules.setFireRun(entry.id, fireAt, runId);
      else await schedules.releaseFire(entry.id, fireAt);
      this.deps.log('info', 'schedule fire left for the next server: this one is shutting down', { schedule: entry.id, fire_at: fireAt });
    } catch (error) {
      this.deps.log('warn', 'a schedule fire could not be given back as the server shut down; it will not be made up', { schedule: entry.id, fire_at: fireAt, error: errorText(error) });
    }
  }

  private again<T>(what: string, fn: () => Promise<T>, fields: Record<string, unknown>): Promise<T> {
    return retrying(what, fn, { log: this.deps.log, stop: this.deps.stop, fields });
  }

  private async ended(entry: ScheduledEntry, live: Live, runId: string | undefined, status: string): Promise<void> {
    try {
      await this.afterRun(entry, live, runId, status);
    } catch (error) {
      this.deps.log('error', 'schedule bookkeeping after a run failed', { schedule: entry.id, run_id: runId, error: errorText(error) });
    }
  }

  private async afterRun(entry: ScheduledEntry, live: Live, runId: string | undefined, status: string): Promise<void> {
    live.running -= 1;
    if (status === 'failed' && entry.schedule.pauseOnFailure) {
      await this.again('pausing a schedule', () => this.deps.store.schedules.pause(entry.id, `run ${runId ?? '?'} failed (pause_on_failure)`), { schedule: entry.id });
      this.deps.log('warn', 'schedule paused: its run failed', { schedule: entry.id, run_id: runId });
      live.buffered = undefined;
      return;
    }
    const buffered = live.buffered;
    if (buffered !== undefined && live.running === 0) {
      live.buffered = undefined;
      this.deps.log('info', 'schedule fired', { schedule: entry.id, fire_at: buffered, why: 'buffered' });
      await this.start(entry, live, buffered, true);
    }
  }
}

function next(schedule: Schedule, now: number): number {
  return nextFires(schedule, new Date(now), 1)[0]?.getTime() ?? Number.POSITIVE_INFINITY;
}
