import { describe, expect, it } from 'vitest';

import { builtinToolSpecs, type BuiltinOptions } from '../../../runtime/tools/builtins/index.js';
import type { ToolSpec } from '../../../runtime/tools/types.js';
import { textOf, toolContext } from './toolContext.js';

function tool(name: string, options: BuiltinOptions = {}): ToolSpec {
  return builtinToolSpecs(options).find((t) => t.ref === `builtins.utils.${name}`)!;
}

const fixed = { utils: { now: () => new Date('2025-07-14T10:30:45.678Z') } };

describe('builtins.utils.current_time', () => {
  it('defaults to UTC', async () => {
    const r = await tool('current_time', fixed).execute({}, toolContext());
    expect(r).toEqual({ isError: false, content: [{ type: 'text', text: '2025-07-14T10:30:45Z (Monday, UTC)' }] });
  });

  it('renders the wall time and offset of an IANA zone, summer and winter', async () => {
    const summer = await tool('current_time', fixed).execute({ timezone: 'Europe/Paris' }, toolContext());
    expect(textOf(summer)).toBe('2025-07-14T12:30:45+02:00 (Monday, Europe/Paris)');
    const winter = await tool('current_time', { utils: { now: () => new Date('2025-01-05T23:15:00Z') } }).execute(
      { timezone: 'America/New_York' },
      toolContext(),
    );
    expect(textOf(winter)).toBe('2025-01-05T18:15:00-05:00 (Sunday, America/New_York)');
    const half = await tool('current_time', fixed).execute({ timezone: 'Asia/Kolkata' }, toolContext());
    expect(textOf(half)).toBe('2025-07-14T16:00:45+05:30 (Monday, Asia/Kolkata)');
  });

  it('returns an error result for an unknown zone', async () => {
    const r = await tool('current_time', fixed).execute({ timezone: 'Mars/Olympus' }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('input.timezone: unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Paris" or "UTC"');
  });

  it('uses the real clock by default', async () => {
    const r = await tool('current_time').execute({}, toolContext());
    const iso = textOf(r).split(' ')[0]!;
    expect(Math.abs(Date.parse(iso) - Date.now())).toBeLessThan(5000);
  });
});

describe('builtins.utils.sleep', () => {
  it('sleeps for the requested time', async () => {
    const started = Date.now();
    const r = await tool('sleep').execute({ seconds: 0.15 }, toolContext());
    expect(textOf(r)).toBe('Slept 0.15 s');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('stops early when the run is cancelled', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const r = await tool('sleep').execute({ seconds: 30 }, toolContext(undefined, controller.signal));
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^sleep interrupted after 0\.\d s of 30 s$/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses durations outside the schema bounds without sleeping', async () => {
    const r = await tool('sleep').execute({ seconds: 120 }, toolContext());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Invalid input for builtins_utils_sleep:\n- input.seconds: must be <= 60, got 120');
  });
});

describe('builtin specs', () => {
  it('mirror the catalog: api names, groups, sources and idempotency', () => {
    const specs = builtinToolSpecs();
    const get = specs.find((s) => s.ref === 'builtins.http.get')!;
    expect(get).toMatchObject({ apiName: 'builtins_http_get', group: 'builtins.http', source: 'builtin', idempotent: true });
    expect(specs.find((s) => s.ref === 'builtins.files.write')).toMatchObject({ apiName: 'builtins_files_write', group: 'builtins.files', idempotent: false });
    expect(specs.map((s) => s.ref)).toEqual([
      'builtins.http.get',
      'builtins.http.post',
      'builtins.http.put',
      'builtins.http.patch',
      'builtins.http.delete',
      'builtins.utils.current_time',
      'builtins.utils.sleep',
      'builtins.files.read',
      'builtins.files.write',
      'builtins.files.list',
      'builtins.human.ask',
      'builtins.dataset.set',
      'builtins.dataset.sample',
      'builtins.dataset.count',
    ]);
    expect(specs.find((s) => s.ref === 'builtins.dataset.set')).toMatchObject({ apiName: 'builtins_dataset_set', group: 'builtins.dataset', idempotent: false });
  });
});
