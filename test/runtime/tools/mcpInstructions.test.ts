import { describe, expect, it } from 'vitest';
import { serverInstructionsSection } from '../../../runtime/tools/mcp/instructions.js';
import type { ToolSpec } from '../../../runtime/tools/types.js';

function tool(group: string, groupInstructions?: string, source: ToolSpec['source'] = 'mcp'): ToolSpec {
  return {
    ref: `${group}.t`,
    apiName: `${group.replace('.', '_')}_t`,
    description: 'a tool',
    inputSchema: { type: 'object' },
    group,
    source,
    idempotent: false,
    ...(groupInstructions !== undefined ? { groupInstructions } : {}),
    execute: async () => ({ content: [], isError: false }),
  };
}

describe('serverInstructionsSection', () => {
  it('is absent when no server of the tools gave instructions', () => {
    expect(serverInstructionsSection([tool('mcp.a'), tool('builtins.http', 'not a server', 'builtin')])).toBeUndefined();
  });

  it('lists each server once, in group order', () => {
    const text = serverInstructionsSection([tool('mcp.b', 'Use b gently.'), tool('mcp.a', 'Call a first.'), tool('mcp.b', 'Use b gently.')])!;
    expect(text.indexOf('### mcp.a\nCall a first.')).toBeLessThan(text.indexOf('### mcp.b\nUse b gently.'));
    expect(text.split('### mcp.b')).toHaveLength(2);
  });

  it('cuts a long text to the byte budget without splitting a character, and says so', () => {
    const text = serverInstructionsSection([tool('mcp.a', `${'x'.repeat(9)}é and more`)], 10)!;
    expect(text).toContain('### mcp.a\nxxxxxxxxx\n(trimmed to 10 bytes)');
    expect(text).not.toContain('and more');
  });
});
