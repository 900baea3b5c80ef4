// runs.listRunning on every backend: the ids and missions of the runs stored `running`, oldest first,
// up to the limit (what a server's recovery pass reads instead of every run's summary).

import { describe, expect, it } from 'vitest';
import type { Store } from '../../../store/index.js';
import { useBackends } from './backends.js';

const ids_ = async (store: Store, limit: number): Promise<string[]> => (await store.runs.listRunning(limit)).map((r) => r.id);

describe.each(useBackends())('$name running runs', (backend) => {
  it('lists the running runs only, oldest first, up to the limit', async () => {
    const store = await backend.fresh();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: { i } })).id);
    await store.runs.setStatus(ids[1]!, 'completed');
    await store.runs.setStatus(ids[3]!, 'interrupted');
    expect(await ids_(store, 100)).toEqual([ids[0], ids[2], ids[4]]);
    expect(await ids_(store, 2)).toEqual([ids[0], ids[2]]);
    await store.runs.setStatus(ids[3]!, 'running');
    expect(await ids_(store, 100)).toEqual([ids[0], ids[2], ids[3], ids[4]]);
    expect((await store.runs.listRunning(1))[0]).toEqual({ id: ids[0], mission: 'm' });
  });
});
