// Datasets filled while the run goes (the Go original's `builtins.dataset.set | sample | count`). What
// a task set is an event of the run (`dataset.set`), so it is stored with the run and read back by a
// resumed run or another runner; the first task that iterates over the dataset locks it
// (`dataset.locked`), after which a set is refused, so every reader sees the same items for good.

import type { DatasetSpec, Mission } from '../../config/graph.js';
import { datasetItems, itemProblems } from '../../config/datasetItems.js';
import type { Value } from '../../config/hcl/value.js';
import type { Store } from '../../store/index.js';
import type { EventRow } from '../../store/index.js';
import type { DatasetAccess } from '../tools/types.js';

const SET = 'dataset.set';
const LOCKED = 'dataset.locked';

interface Folded {
  items: Value[];
  locked: boolean;
}

function fold(rows: readonly EventRow[], dataset: string): Folded {
  let items: Value[] = [];
  let locked = false;
  for (const row of rows) {
    const data = row.data as { dataset?: unknown; items?: unknown; append?: unknown } | null;
    if (data?.dataset !== dataset) continue;
    if (row.type === LOCKED) locked = true;
    else if (row.type === SET && Array.isArray(data.items)) items = data.append === true ? [...items, ...(data.items as Value[])] : (data.items as Value[]);
  }
  return { items, locked };
}

async function read(store: Store, runId: string, dataset: string): Promise<Folded> {
  const rows = (await store.events.list(runId)).filter((r) => r.type === SET || r.type === LOCKED);
  return fold(rows, dataset);
}

/**
 * The items an iterated task walks: for a filled dataset, what the run set, locked from now on (in
 * the same transaction, so no set slips in between); for the others, the config's or the input's.
 */
export async function itemsForIteration(store: Store, runId: string, task: string, dataset: DatasetSpec, inputs: Readonly<Record<string, Value>>): Promise<Value[]> {
  if (dataset.source.kind !== 'filled') return datasetItems(dataset, inputs).items;
  return store.transaction(async (tx) => {
    const now = await read(tx, runId, dataset.name);
    if (!now.locked) await tx.events.append({ runId, type: LOCKED, task, data: { dataset: dataset.name, count: now.items.length } });
    return now.items;
  });
}

/** What the dataset tools of one task's sessions reach (a ToolContext's `datasets`). */
export function datasetAccess(store: Store, runId: string, mission: Mission, task: string, inputs: Readonly<Record<string, Value>>): DatasetAccess {
  const find = (name: string): DatasetSpec | string =>
    mission.datasets.find((d) => d.name === name) ?? `mission "${mission.name}" has no dataset "${name}" (it has: ${mission.datasets.map((d) => d.name).join(', ') || 'none'})`;
  return {
    async set(name, items, append) {
      const dataset = find(name);
      if (typeof dataset === 'string') return { ok: false, message: dataset };
      if (dataset.source.kind !== 'filled') return { ok: false, message: `dataset "${name}" takes its items from the config (items or bind_to); only a dataset without them is filled at run time` };
      const problems = dataset.schema === undefined ? [] : items.flatMap((item, i) => itemProblems(dataset.schema!, item, i));
      if (problems.length > 0) return { ok: false, message: `nothing was set: ${problems.join('; ')}` };
      return store.transaction(async (tx) => {
        const now = await read(tx, runId, name);
        if (now.locked) return { ok: false, message: `dataset "${name}" is locked: a task has started iterating over its ${now.items.length} items` };
        await tx.events.append({ runId, type: SET, task, data: { dataset: name, items, append } });
        const total = append ? now.items.length + items.length : items.length;
        return { ok: true, message: append ? `appended ${items.length} items to dataset "${name}" (${total} now)` : `set dataset "${name}" to ${items.length} items` };
      });
    },
    async items(name) {
      const dataset = find(name);
      if (typeof dataset === 'string') return dataset;
      if (dataset.source.kind !== 'filled') return datasetItems(dataset, inputs).items;
      return (await read(store, runId, name)).items;
    },
  };
}
