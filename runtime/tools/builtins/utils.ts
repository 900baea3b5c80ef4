// `builtins.utils.{current_time,sleep}` (the file is named after the builtin namespace). The clock
// is injectable so tests and replays see a fixed time.

import type { ToolContext, ToolResult } from '../types.js';
import { textResult } from '../types.js';

export interface UtilsOptions {
  now?: () => Date;
}

export function currentTimeTool(input: { timezone?: string }, options: UtilsOptions = {}): ToolResult {
  const timeZone = input.timezone ?? 'UTC';
  const fmt = formatterFor(timeZone);
  if (!fmt) return textResult(`input.timezone: unknown time zone "${timeZone}"; use an IANA name such as "Europe/Paris" or "UTC"`, true);
  const now = (options.now ?? (() => new Date()))();
  const parts = Object.fromEntries(fmt.formatToParts(now).map((p) => [p.type, p.value]));
  const wall = `${parts['year']}-${parts['month']}-${parts['day']}T${parts['hour']}:${parts['minute']}:${parts['second']}`;
  // The zone's offset at this instant: wall-clock time read as UTC, minus the real instant.
  const offsetMinutes = Math.round((Date.parse(`${wall}Z`) - Math.floor(now.getTime() / 1000) * 1000) / 60_000);
  const iso = `${wall}${formatOffset(offsetMinutes)}`;
  // The zone as the caller wrote it: ICU would rename some (Asia/Kolkata → Asia/Calcutta).
  return textResult(`${iso} (${parts['weekday']}, ${timeZone})`);
}

// Building a formatter costs tens of milliseconds the first time; one per time zone is kept.
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | undefined {
  let fmt = formatters.get(timeZone);
  if (fmt === undefined) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        weekday: 'long',
      });
    } catch {
      fmt = null;
    }
    formatters.set(timeZone, fmt);
  }
  return fmt ?? undefined;
}

function formatOffset(minutes: number): string {
  if (minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Waits, or stops early with an error result when the run is cancelled. */
export function sleepTool(input: { seconds: number }, ctx: ToolContext): Promise<ToolResult> {
  const started = Date.now();
  const elapsed = (): string => ((Date.now() - started) / 1000).toFixed(1);
  if (ctx.signal.aborted) return Promise.resolve(textResult('sleep cancelled before it started', true));
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(textResult(`sleep interrupted after ${elapsed()} s of ${input.seconds} s`, true));
    };
    const timer = setTimeout(() => {
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(textResult(`Slept ${input.seconds} s`));
    }, input.seconds * 1000);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}
