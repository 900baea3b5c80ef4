// The toolbox's order of tools: a tool shown last stays after every tool shown later, so a session
// that learns of it mid-way and a resumed one that knows it from the start send the same list; and
// Toolbox.replace, a server's changed tools swapped into a session's toolbox.

import { describe, expect, it } from 'vitest';
import { Toolbox, type SessionTool } from '../../../runtime/tools/toolbox.js';

const plain = (name: string): SessionTool => ({
  ref: name,
  definition: { name, description: name, inputSchema: { type: 'object' } },
  onInterrupted: 'rerun',
  execute: async () => ({ content: [], isError: false }),
});

describe('Toolbox', () => {
  it('keeps tools shown last after tools shown later, in the same order as a box built with them at once', () => {
    const live = new Toolbox([plain('a')]);
    for (const t of ['late', 'reader']) live.authorize(plain(t));
    live.showLast('reader');
    live.show('late');
    const resumed = new Toolbox([plain('a'), plain('late')]);
    resumed.authorize(plain('reader'));
    resumed.showLast('reader');
    expect(live.definitionsForTurn().map((d) => d.name)).toEqual(['a', 'late', 'reader']);
    expect(resumed.definitionsForTurn().map((d) => d.name)).toEqual(['a', 'late', 'reader']);
    expect(live.show('reader')).toBe(false);
    expect(live.showLast('a')).toBe(false);
  });
});

function tool(name: string, description = name): SessionTool {
  return {
    ref: `mcp.s.${name}`,
    definition: { name: `mcp_s_${name}`, description, inputSchema: { type: 'object' } },
    onInterrupted: 'report',
    execute: async () => ({ content: [{ type: 'text', text: name }], isError: false }),
  };
}

const internal: SessionTool = { ...tool('x'), ref: 'load_skill', definition: { name: 'load_skill', description: '', inputSchema: {} } };

describe('Toolbox.replace', () => {
  it('removes tools no longer listed, adds new ones, and leads with the fresh list in its order', () => {
    const box = new Toolbox([tool('a'), tool('b'), internal]);
    box.replace(['mcp_s_a', 'mcp_s_b'], [tool('c'), tool('a', 'new a')], true);
    expect(box.visibleNames()).toEqual(['mcp_s_c', 'mcp_s_a', 'load_skill']);
    expect(box.resolve('mcp_s_b')).toBeUndefined();
    expect(box.definitionsForTurn()[1]!.description).toBe('new a');
  });

  it('without leading, keeps only what was visible and authorizes the rest without showing it', () => {
    const box = new Toolbox([tool('a'), tool('b')], ['mcp_s_a']);
    box.replace(['mcp_s_a', 'mcp_s_b'], [tool('b'), tool('c')], false);
    expect(box.visibleNames()).toEqual([]);
    expect(box.resolve('mcp_s_c')?.ref).toBe('mcp.s.c');
    expect(box.resolve('mcp_s_a')).toBeUndefined();
  });
});
