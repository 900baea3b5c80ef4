// A run's stored events, as `squadron logs <run> [-f]` and `inspect --follow` print them: one line
// each (the plain progress lines of a run, with the time), or one JSON object a line with --json.
// The events come from api's followRun, which reads the store until the run has ended.

import type { FollowedEvent, RunEvent, RunStore } from '../api/index.js';
import { groupDigits } from '../core/digits.js';
import type { CliIo } from './io.js';
import { plainLine } from './progress.js';

export interface FollowOptions {
  follow: boolean;
  json: boolean;
  /** Stops following (Ctrl-C): resolves with what was shown. */
  stop?: AbortSignal;
}

/** Prints the run's events from the first on; with `follow`, until the run ends. Resolves with the run's status then. */
export async function printEvents(io: CliIo, store: RunStore, runId: string, opts: FollowOptions): Promise<string> {
  const { followRun } = await import('../api/followEvents.js');
  const events = followRun(store, runId, { follow: opts.follow, ...(opts.stop ? { stop: opts.stop } : {}) });
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    const row = next.value;
    const line = opts.json ? JSON.stringify({ id: row.id, at: row.createdAt, type: row.type, ...(row.task !== undefined ? { task: row.task } : {}), event: row.data }) : eventText(row);
    if (line !== undefined) io.stdout.write(`${line}\n`);
  }
}

/** `12:04:31 task gather: started`; model turns and the run's end too, which plain progress leaves to its header. */
function eventText(row: FollowedEvent): string | undefined {
  const event = row.data as RunEvent;
  const time = row.createdAt.slice(11, 19);
  let text: string | undefined;
  if (event.type === 'model.turn') text = `  ${event.agent}[${event.task}] model turn ${event.turn}: ${groupDigits(event.usage.inputTokens + event.usage.outputTokens)} tokens`;
  else if (event.type === 'run.finished') text = `run ${event.status}${event.error ? `: ${event.error}` : ''}`;
  else text = plainLine(event);
  return text === undefined ? undefined : `${time} ${text}`;
}
