// runs.claimTraceContext on every backend (migration 0016): the first claim stores its value, every
// later one gets that value back whatever it offered, and an unknown run is NOT_FOUND.

import { describe, expect, it } from 'vitest';
import { useBackends } from './backends.js';

describe.each(useBackends())('$name run trace context', (backend) => {
  it('is stored once: later claims, concurrent ones included, read the first', async () => {
    const store = await backend.fresh();
    const runId = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
    expect(await store.runs.claimTraceContext(runId, 'first')).toBe('first');
    expect(await store.runs.claimTraceContext(runId, 'second')).toBe('first');
    const other = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((c) => store.runs.claimTraceContext(other, c)));
    expect(new Set(claims).size).toBe(1);
    await expect(store.runs.claimTraceContext('run_missing', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
