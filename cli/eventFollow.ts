// A run's stored events, as `squadron logs <run> [-f]` and `inspect --follow` print them: one line
// each (the plain progress lines of a run, with the time), or one JSON object a line with --json.
// Following reads the events table again every POLL_MS until the run has ended (any status but
// running or queued, a run whose runner is gone counting as interrupted) and every event is shown.

import type { RunEvent } from '../runtime/kernel/events.js';
import { plainLine } from '../runtime/progress.js';
import { shownRunStatus } from '../runtime/kernel/runStatus.js';
import type { EventRow, Store } from '../store/index.js';
import { groupDigits } from '../core/digits.js';
import type { CliIo } from './io.js';

const POLL_MS = 250;
const PAGE = 500;

export interface FollowOptions {
  follow: boolean;
  json: boolean;
  /** Stops following (Ctrl-C): resolves with what was shown. */
  stop?: AbortSignal;
}

/** Prints the run's events from the first on; with `follow`, until the run ends. Resolves with the run's status then. */
export async function printEvents(io: CliIo, store: Store, runId: string, opts: FollowOptions): Promise<string> {
  let after = 0;
  for (;;) {
    // The status is read before the events: an event written before the run ended is then always seen.
    const run = await store.runs.get(runId);
    const status = run === undefined ? 'unknown' : await shownRunStatus(store, runId, run.status);
    let rows: EventRow[];
    do {
      rows = await store.events.list(runId, { afterId: after, limit: PAGE });
      for (const row of rows) {
        after = row.id;
        const line = opts.json ? JSON.stringify({ id: row.id, at: row.createdAt, type: row.type, ...(row.task !== undefined ? { task: row.task } : {}), event: row.data }) : eventText(row);
        if (line !== undefined) io.stdout.write(`${line}\n`);
      }
    } while (rows.length === PAGE);
    if (!opts.follow || (status !== 'running' && status !== 'queued') || opts.stop?.aborted) return status;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      function done(): void {
        clearTimeout(timer);
        opts.stop?.removeEventListener('abort', done);
        resolve();
      }
      opts.stop?.addEventListener('abort', done, { once: true });
    });
  }
}

/** `12:04:31 task gather: started`; model turns and the run's end too, which plain progress leaves to its header. */
function eventText(row: EventRow): string | undefined {
  const event = row.data as RunEvent;
  const time = row.createdAt.slice(11, 19);
  let text: string | undefined;
  if (event.type === 'model.turn') text = `  ${event.agent}[${event.task}] model turn ${event.turn}: ${groupDigits(event.usage.inputTokens + event.usage.outputTokens)} tokens`;
  else if (event.type === 'run.finished') text = `run ${event.status}${event.error ? `: ${event.error}` : ''}`;
  else text = plainLine(event);
  return text === undefined ? undefined : `${time} ${text}`;
}
