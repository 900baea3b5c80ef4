// Toolbox.replace: a server's changed tools swapped into a session's toolbox.

import { describe, expect, it } from 'vitest';
import { Toolbox, type SessionTool } from '../../../runtime/agents/toolbox.js';

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
