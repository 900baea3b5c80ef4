// Fires the missions' schedules while the server runs. Each fire is claimed in the database first
// (one row per schedule and time), so several servers on one database start one run per fire. The
// policies: `overlap` (skip, buffer_one, allow) against the schedule's runs still in flight here,
// `catchup_window` (the last fire missed while no server ran is made up once at start),
// `pause_on_failure`. Times come from the server's clock (injectable for tests).

import { nextFires, type LoadedProject, type Mission, type RunStore, type Schedule } from '../api/index.js';
import { errorText, type Log } from './log.js';
import type { RunPool } from './runPool.js';

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
    private readonly deps: { store: RunStore; runner: RunPool; project: () => LoadedProject; now: () => number; log: Log },
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
        // Fires missed meanwhile (a slow pass, a suspended machine) are not made up one by one.
        live.nextAt = next(schedule, now);
        if (paused.has(id)) continue;
        await this.fire(entry, live, fireAt, 'schedule');
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
    const runId = await this.start(entry, live, fireAt);
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
    if (!(await this.deps.store.schedules.claimFire(entry.id, fireAt))) {
      this.deps.log('info', 'schedule fire taken by another server', { schedule: entry.id, fire_at: fireAt });
      return;
    }
    if (this.held(entry, live, fireAt)) return;
    this.deps.log('info', 'schedule fired', { schedule: entry.id, fire_at: fireAt, why });
    await this.start(entry, live, fireAt);
  }

  private async start(entry: ScheduledEntry, live: Live, fireAt: string): Promise<string | undefined> {
    live.running += 1;
    try {
      const runId = await this.deps.runner.start(this.deps.project(), entry.mission.name, entry.schedule.inputs, (status) => void this.ended(entry, live, runId, status));
      if (!fireAt.startsWith('manual:')) await this.deps.store.schedules.setFireRun(entry.id, fireAt, runId);
      return runId;
    } catch (error) {
      live.running -= 1;
      this.deps.log('error', 'scheduled run could not start', { schedule: entry.id, fire_at: fireAt, error: errorText(error) });
      return undefined;
    }
  }

  private async ended(entry: ScheduledEntry, live: Live, runId: string | undefined, status: string): Promise<void> {
    live.running -= 1;
    if (status === 'failed' && entry.schedule.pauseOnFailure) {
      await this.deps.store.schedules.pause(entry.id, `run ${runId ?? '?'} failed (pause_on_failure)`);
      this.deps.log('warn', 'schedule paused: its run failed', { schedule: entry.id, run_id: runId });
      live.buffered = undefined;
      return;
    }
    const buffered = live.buffered;
    if (buffered !== undefined && live.running === 0) {
      live.buffered = undefined;
      this.deps.log('info', 'schedule fired', { schedule: entry.id, fire_at: buffered, why: 'buffered' });
      await this.start(entry, live, buffered);
    }
  }
}

function next(schedule: Schedule, now: number): number {
  return nextFires(schedule, new Date(now), 1)[0]?.getTime() ?? Number.POSITIVE_INFINITY;
}
