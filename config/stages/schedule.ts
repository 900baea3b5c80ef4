// The `schedule { at | every | cron, weekdays, timezone, inputs }` blocks of a mission (0..n), with
// Go's validation rules (exactly one of at/every/cron; `every` divides an hour or a day; HH:MM times;
// mon..sun; an IANA time zone; string inputs) and the policies `squadron serve` applies: `overlap`,
// `catchup_window`, `pause_on_failure`. `at` and `every` compile to cron as Go's ToCron does.

import { Cron } from 'croner';
import type { Attribute, Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { Schedule } from '../graph.js';
import { readDuration } from '../duration.js';
import { decodeBody, locationOf, type BlockSchema, type NestedBlockSpec } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { readBool, readEnum, readString, readStringList, readStringMap } from '../values.js';

export const SCHEDULE_BLOCK: NestedBlockSpec = { labels: [] };

const SCHEMA: BlockSchema = {
  attributes: { at: {}, every: {}, cron: {}, weekdays: {}, timezone: {}, inputs: {}, overlap: {}, catchup_window: {}, pause_on_failure: {} },
};

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const EVERY = /^(\d+)(m|h)$/;

export function loadSchedules(blocks: readonly Block[], scope: Scope, ctx: LoadContext): Schedule[] {
  const out: Schedule[] = [];
  blocks.forEach((block, index) => {
    const s = loadSchedule(block, index, scope, ctx);
    if (s) out.push(s);
  });
  return out;
}

function loadSchedule(block: Block, index: number, scope: Scope, ctx: LoadContext): Schedule | undefined {
  const where = `${scope.where} schedule[${index}]`;
  const body = decodeBody(block.body, SCHEMA, { what: where, header: block.typeRange }, ctx.diags);
  const a = (name: string): Attribute | undefined => body.attrs.get(name);
  const fail = (attr: Attribute | undefined, message: string, hint?: string): undefined => {
    ctx.diags.push(diagnosticAt(attr ? attr.expr.range : block.typeRange, 'error', 'SCH013', `${where}: ${message}`, hint));
    return undefined;
  };
  const given = (['at', 'every', 'cron'] as const).filter((n) => a(n) !== undefined);
  if (given.length !== 1) {
    ctx.diags.push(diagnosticAt(given.length > 1 ? a(given[1]!)!.nameRange : block.typeRange, 'error', 'SCH003', `${where}: exactly one of 'at', 'every', or 'cron' must be set`, 'e.g. at = ["07:00"], every = "15m" or cron = "0 7 * * 1-5"'));
    return undefined;
  }
  const timezone = readString(a('timezone'), scope, ctx.diags) ?? 'UTC';
  if (!validZone(timezone)) return fail(a('timezone'), `invalid timezone ${JSON.stringify(timezone)}: not an IANA time zone`, 'e.g. timezone = "Europe/Paris"');
  let dow = '*';
  const weekdays = readStringList(a('weekdays'), scope, ctx.diags);
  if (weekdays !== undefined) {
    if (a('cron')) return fail(a('weekdays'), "'weekdays' cannot be used with 'cron'", 'put the days in the cron expression');
    const nums: number[] = [];
    for (const d of weekdays) {
      const n = DAYS.indexOf(d.toLowerCase().slice(0, 3));
      if (n < 0 || !DAYS.includes(d.toLowerCase())) return fail(a('weekdays'), `invalid weekday ${JSON.stringify(d)}: must be mon-sun`);
      nums.push(n);
    }
    dow = [...new Set(nums)].sort((x, y) => x - y).join(',');
  }
  let cron: string;
  let spec: string;
  if (a('at')) {
    const times = readStringList(a('at'), scope, ctx.diags);
    if (times === undefined) return undefined;
    if (times.length === 0) return fail(a('at'), "'at' needs at least one time");
    const parsed: [number, number][] = [];
    for (const t of times) {
      const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(t);
      if (!m) return fail(a('at'), `invalid 'at' value ${JSON.stringify(t)}: must be HH:MM (24h format)`);
      parsed.push([Number(m[1]), Number(m[2])]);
    }
    // Go compiles several times to the cross product of their minutes and hours (07:00 and 19:30
    // would also fire at 07:30 and 19:00); here each distinct minute gets its own expression, joined
    // by "; ", so exactly the listed times fire.
    const byMinute = new Map<number, number[]>();
    for (const [h, m] of parsed) byMinute.set(m, [...(byMinute.get(m) ?? []), h]);
    cron = [...byMinute.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([m, hs]) => `${m} ${[...new Set(hs)].sort((x, y) => x - y).join(',')} * * ${dow}`)
      .join('; ');
    spec = `at ${times.join(', ')}`;
  } else if (a('every')) {
    const every = readString(a('every'), scope, ctx.diags);
    if (every === undefined) return undefined;
    const m = EVERY.exec(every.trim());
    if (!m) return fail(a('every'), `'every' must be at least 1m, got ${JSON.stringify(every)}`, 'e.g. every = "15m" or every = "6h"');
    const n = Number(m[1]);
    const minutes = m[2] === 'h' ? n * 60 : n;
    if (minutes < 1) return fail(a('every'), `'every' must be at least 1m, got ${every}`);
    if (minutes < 60) {
      if (60 % minutes !== 0) return fail(a('every'), `'every' interval ${JSON.stringify(every)} must divide evenly into 60 minutes (valid: 1m, 2m, 3m, 4m, 5m, 6m, 10m, 12m, 15m, 20m, 30m)`);
      cron = `*/${minutes} * * * ${dow}`;
    } else {
      if (minutes % 60 !== 0) return fail(a('every'), `'every' interval ${JSON.stringify(every)} must be a whole number of hours when >= 1h`);
      const hours = minutes / 60;
      if (24 % hours !== 0) return fail(a('every'), `'every' interval ${JSON.stringify(every)} must divide evenly into 24 hours (valid: 1h, 2h, 3h, 4h, 6h, 8h, 12h)`);
      cron = `0 */${hours} * * ${dow}`;
    }
    spec = `every ${every}`;
  } else {
    const text = readString(a('cron'), scope, ctx.diags);
    if (text === undefined) return undefined;
    if (text.trim().split(/\s+/).length !== 5) return fail(a('cron'), `invalid cron expression ${JSON.stringify(text)}: expected 5 fields (minute hour day month weekday)`);
    cron = text.trim();
    spec = `cron "${cron}"`;
  }
  try {
    for (const part of cron.split('; ')) new Cron(part, { timezone, paused: true });
  } catch (error) {
    return fail(a('cron') ?? a('at') ?? a('every'), `invalid cron expression ${JSON.stringify(cron)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const inputs = readStringMap(a('inputs'), scope, ctx.diags) ?? {};
  const overlap = readEnum(a('overlap'), ['skip', 'buffer_one', 'allow'] as const, scope, ctx.diags) ?? 'skip';
  const catchupWindowMs = readDuration(a('catchup_window'), scope, ctx.diags) ?? 0;
  const pauseOnFailure = readBool(a('pause_on_failure'), scope, ctx.diags) ?? false;
  return { index, cron, spec, timezone, inputs, overlap, catchupWindowMs, pauseOnFailure, location: locationOf(block), range: block.typeRange };
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The next `n` fire times of a schedule after `from`. */
export function nextFires(schedule: Pick<Schedule, 'cron' | 'timezone'>, from: Date, n: number): Date[] {
  const all = schedule.cron.split('; ').flatMap((part) => new Cron(part, { timezone: schedule.timezone, paused: true }).nextRuns(n, from));
  return [...new Map(all.map((d) => [d.getTime(), d])).values()].sort((a, b) => a.getTime() - b.getTime()).slice(0, n);
}

/** A time as the schedule's zone shows it: `2031-03-04 08:00 (Europe/Paris)`. */
export function zonedTime(at: Date, timezone: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']} (${timezone})`;
}
