// The lines `validate` and `plan` print for a mission's schedules: what each says and its next three
// fire times in its own time zone. SQUADRON_CLOCK (an ISO time) sets "now", as it does for serve.

import { nextFires, zonedTime } from '../api/scheduleFires.js';
import type { Mission } from '../api/index.js';

export function scheduleLines(mission: Pick<Mission, 'name' | 'schedules' | 'trigger'>, env: NodeJS.ProcessEnv, indent = '  '): string[] {
  const clock = env['SQUADRON_CLOCK'];
  const parsed = clock ? (/^\d+$/.test(clock) ? Number(clock) : Date.parse(clock)) : NaN;
  const now = new Date(Number.isFinite(parsed) ? parsed : Date.now());
  const lines = mission.schedules.map((s) => {
    const next = nextFires(s, now, 3).map((d) => zonedTime(d, s.timezone).replace(` (${s.timezone})`, ''));
    const policies = [`overlap ${s.overlap}`, ...(s.catchupWindowMs > 0 ? [`catch-up ${Math.round(s.catchupWindowMs / 60_000)}m`] : []), ...(s.pauseOnFailure ? ['pause on failure'] : [])];
    return `${indent}schedule ${mission.name}.${s.index}: ${s.spec} (${s.timezone}, ${policies.join(', ')}) · next ${next.join(', ')}`;
  });
  if (mission.trigger) lines.push(`${indent}trigger: POST /webhooks/${mission.trigger.path} (${mission.trigger.signature === 'hmac' ? 'signed' : 'shared secret'})`);
  return lines;
}
