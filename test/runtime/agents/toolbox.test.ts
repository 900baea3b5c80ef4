// The toolbox's order of tools: a tool shown last stays after every tool shown later, so a session
// that learns of it mid-way and a resumed one that knows it from the start send the same list.

import { describe, expect, it } from 'vitest';
import { Toolbox, type SessionTool } from '../../../runtime/agents/toolbox.js';

const tool = (name: string): SessionTool => ({
  ref: name,
  definition: { name, description: name, inputSchema: { type: 'object' } },
  onInterrupted: 'rerun',
  execute: async () => ({ content: [], isError: false }),
});

describe('Toolbox', () => {
  it('keeps tools shown last after tools shown later, in the same order as a box built with them at once', () => {
    const live = new Toolbox([tool('a')]);
    for (const t of ['late', 'reader']) live.authorize(tool(t));
    live.showLast('reader');
    live.show('late');
    const resumed = new Toolbox([tool('a'), tool('late')]);
    resumed.authorize(tool('reader'));
    resumed.showLast('reader');
    expect(live.definitionsForTurn().map((d) => d.name)).toEqual(['a', 'late', 'reader']);
    expect(resumed.definitionsForTurn().map((d) => d.name)).toEqual(['a', 'late', 'reader']);
    expect(live.show('reader')).toBe(false);
    expect(live.showLast('a')).toBe(false);
  });
});
