// The run's unit slots (max_parallel) and the live view's items line.

import { describe, expect, it } from 'vitest';
import { UnitSlots } from '../../../runtime/iteration/slots.js';
import { itemsText } from '../../../cli/progress.js';
import { parseItemLabel, itemLabel } from '../../../core/sessionLabels.js';

describe('UnitSlots', () => {
  it('grants at most capacity slots and hands a released slot to the first waiter', async () => {
    const slots = new UnitSlots(2);
    expect(slots.tryTake()).toBe(true);
    await slots.take();
    expect(slots.free).toBe(0);
    const order: string[] = [];
    const a = slots.take().then(() => order.push('a'));
    const b = slots.take().then(() => order.push('b'));
    expect(slots.tryTake()).toBe(false);
    slots.release();
    await a;
    expect(order).toEqual(['a']);
    expect(slots.free).toBe(0);
    slots.release();
    await b;
    expect(order).toEqual(['a', 'b']);
    slots.release();
    slots.release();
    expect(slots.free).toBe(2);
  });

  it('a waiter whose signal aborts leaves the queue without a slot', async () => {
    const slots = new UnitSlots(1);
    slots.tryTake();
    const stop = new AbortController();
    const waiting = slots.take(stop.signal);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    slots.release();
    expect(slots.free).toBe(1);
  });
});

describe('items line and labels', () => {
  it('shows successes out of all, failures and an ETA at the pace so far', () => {
    expect(itemsText({ total: 1000, completed: 412, failed: 3, since: 0, doneHere: 415 }, 41_500)).toBe('412/1000 ✓ 3 ✗ · ETA 58s');
    expect(itemsText({ total: 4, completed: 4, failed: 0, since: 0, doneHere: 4 }, 1000)).toBe('4/4 ✓ 0 ✗');
  });

  it('reads the task and index back from an item label, also of an earlier attempt', () => {
    expect(parseItemLabel(itemLabel('triage', 17))).toEqual({ task: 'triage', index: 17 });
    expect(parseItemLabel('triage[3]#1')).toEqual({ task: 'triage', index: 3 });
    expect(parseItemLabel('triage')).toBeUndefined();
    expect(parseItemLabel('triage#2')).toBeUndefined();
  });
});
