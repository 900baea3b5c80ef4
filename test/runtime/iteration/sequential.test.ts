// Sequential iteration (runtime/iteration/sequential.ts) on its own: a real store, the run's services
// as openRunServices builds them, and a scripted commander walking the dataset with dataset_next.
// The items come in order, each completed when the commander moves on; a commander resumed in a new
// process continues after the last item it took; with an output schema the walk waits for each
// item's output; a commander that takes no item fails the task.

import { describe, expect, it } from 'vitest';
import { taskItems } from '../../../runtime/iteration/index.js';
import { runSequentialItems } from '../../../runtime/iteration/sequential.js';
import { UnitSlots } from '../../../runtime/iteration/slots.js';
import type { ModelRequest, ModelResponse } from '../../../runtime/providers/types.js';
import { harness, MODEL_BLOCK, reopen, use, type Harness, type Script } from '../orchestration.js';

function hcl(output = ''): string {
  return `${MODEL_BLOCK}
mission "m" {
  commander { model = models.m.claude_sonnet_4_6 }
  dataset "letters" { items = ["a", "b", "c"] }
  task "t" {
    objective = "Handle every letter."
    tools     = [builtins.utils.current_time]
    iterator { dataset = datasets.letters }
${output}
  }
}
`;
}

/** What dataset_next answered in the conversation, in order (with isError), read from the tool results. */
function walk(request: ModelRequest): { isError: boolean; text: string; json?: { status: string; index?: number; item?: unknown } }[] {
  const parts = request.messages.flatMap((m) => m.parts);
  const ids = new Set(parts.flatMap((p) => (p.type === 'tool_use' && p.name === 'dataset_next' ? [p.id] : [])));
  return parts.flatMap((p) => {
    if (p.type !== 'tool_result' || !ids.has(p.toolUseId)) return [];
    const text = p.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    try {
      return [{ isError: p.isError, text, json: JSON.parse(text) as { status: string; index?: number } }];
    } catch {
      return [{ isError: p.isError, text }];
    }
  });
}

/** A commander that takes items until the dataset is exhausted, then completes. */
const walker: Script = (request) => {
  const last = walk(request).at(-1);
  return last?.json?.status === 'exhausted' ? use('task_complete', { summary: 'Walked the letters.' }) : use('dataset_next', {});
};

async function run(h: Harness) {
  const task = h.ctx.mission.tasks[0]!;
  return runSequentialItems(h.ctx, task, await taskItems(h.ctx, task), [], { slots: new UnitSlots(4) });
}

const statuses = async (h: Harness) => (await h.store.items.list(h.ctx.runId, 't')).map((r) => r.status);

describe('runSequentialItems', () => {
  it('hands the items out in order, completing each as the commander moves on', async () => {
    const h = await harness(hcl(), walker);
    const outcome = await run(h);
    expect(outcome).toEqual({ status: 'completed', summary: 'Walked the letters.\n(3 of 3 items processed; read their outputs with query_task_output)' });
    const last = h.requests.at(-1)!;
    expect(walk(last).map((r) => r.json)).toEqual([
      { status: 'ok', index: 0, total: 3, item: 'a' },
      { status: 'ok', index: 1, total: 3, item: 'b' },
      { status: 'ok', index: 2, total: 3, item: 'c' },
      { status: 'exhausted', completed: 3 },
    ]);
    expect(await statuses(h)).toEqual(['completed', 'completed', 'completed']);
    expect(h.events.filter((e) => e.type === 'item.started').map((e) => (e as { index: number }).index)).toEqual([0, 1, 2]);
    expect(h.events.filter((e) => e.type === 'item.finished').map((e) => [(e as { index: number }).index, (e as { completed: number }).completed])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    // Only the commander worked: the walk needs no agent.
    expect(new Set(h.requests.map((r) => r.trace.agent))).toEqual(new Set(['commander']));
    await h.close();
  });

  it('resumed in a new process, continues after the last item taken instead of starting over', async () => {
    // First process: the commander takes items 0 and 1, then the run is interrupted.
    let first: Harness | undefined;
    first = await harness(hcl(), (request) => {
      if (walk(request).length === 2) first!.interrupt.abort();
      return use('dataset_next', {});
    });
    await run(first).catch((error: unknown) => error);
    expect(await statuses(first)).toEqual(['completed', 'running', 'pending']);
    await first.close();

    const second = await reopen(first, walker);
    const outcome = await run(second);
    expect(outcome).toMatchObject({ status: 'completed', summary: expect.stringContaining('(3 of 3 items processed;') });
    // The resumed commander's first request already holds the items taken before: 0 and 1, and 2 from
    // the dataset_next call the interruption cut off (stored with its turn, run again on resume).
    expect(walk(second.requests[0]!).map((r) => r.json?.index)).toEqual([0, 1, 2]);
    // Across both processes each item was handed out once, in order.
    expect(walk(second.requests.at(-1)!).map((r) => r.json?.index ?? r.json?.status)).toEqual([0, 1, 2, 'exhausted']);
    expect(await statuses(second)).toEqual(['completed', 'completed', 'completed']);
    await second.close();
  });

  it("with an output schema refuses to move on before the current item's output, and stores each output", async () => {
    // Takes an item, tries to take the next one at once (refused), submits the item's output, and so on.
    const script: Script = (request): ModelResponse => {
      const results = walk(request);
      const last = results.at(-1);
      const lastTool = request.messages.at(-2)?.parts.find((p) => p.type === 'tool_use');
      const lastName = lastTool?.type === 'tool_use' ? lastTool.name : undefined;
      if (last?.json?.status === 'exhausted') return use('task_complete', { summary: 'Done.' });
      if (lastName === 'dataset_next' && last?.isError) {
        const index = results.filter((r) => r.json?.status === 'ok').at(-1)!.json!.index!;
        return use('submit_output', { output: { upper: ['A', 'B', 'C'][index] } });
      }
      return use('dataset_next', {});
    };
    const h = await harness(hcl('    output = {\n      upper = string("the letter in capitals", true)\n    }'), script);
    const outcome = await run(h);
    expect(outcome).toEqual({ status: 'completed', summary: expect.any(String) });
    const results = walk(h.requests.at(-1)!);
    expect(results.filter((r) => r.isError).map((r) => r.text)).toEqual([0, 1, 2].map((i) => `Call submit_output with the output of item ${i} before taking the next item.`));
    const rows = await h.store.items.list(h.ctx.runId, 't');
    expect(rows.map((r) => [r.status, (r as { output?: unknown }).output])).toEqual([
      ['completed', { upper: 'A' }],
      ['completed', { upper: 'B' }],
      ['completed', { upper: 'C' }],
    ]);
    await h.close();
  });

  it('fails the task when the commander completes without taking any item', async () => {
    const h = await harness(hcl(), () => use('task_complete', { summary: 'Nothing to do.' }));
    expect(await run(h)).toEqual({ status: 'failed', error: 'the commander completed the task without taking any item with dataset_next (3 items)' });
    expect(await statuses(h)).toEqual(['pending', 'pending', 'pending']);
    await h.close();
  });
});
