import { describe, expect, it } from 'vitest';
import { contractGroups, renderDiscoveryContract } from '../../../runtime/discovery/contract.js';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import { sampleCatalog } from './makeTool.js';

describe('renderDiscoveryContract', () => {
  it('explains search → schema → call and lists each group on one line, sorted by name', () => {
    const text = renderDiscoveryContract([
      { name: 'mcp.slack', count: 10, description: 'Slack workspace.\nChannels and threads. More text.' },
      { name: 'crm', count: 4 },
    ]);
    expect(text).toContain('You hold 14 tools');
    expect(text).toContain('`search_tools`');
    expect(text).toContain('`get_tool_schema`');
    const groupLines = text.split('\n').filter((l) => l.startsWith('- '));
    expect(groupLines).toEqual(['- crm (4)', '- mcp.slack (10): Slack workspace.']);
    expect(text).toContain('Groups:\n- crm (4)\n- mcp.slack');
    expect(text.indexOf('search_tools')).toBeLessThan(text.indexOf('get_tool_schema'));
    expect(text).not.toMatch(/\{\{|\}\}/);
  });

  it('is byte-identical whatever order the groups come in', () => {
    const a = [
      { name: 'b', count: 1 },
      { name: 'a', count: 2 },
    ];
    expect(renderDiscoveryContract(a)).toBe(renderDiscoveryContract([...a].reverse()));
  });

  it('stays short: under 1 KB for a dozen groups without descriptions', () => {
    const groups = Array.from({ length: 12 }, (_, i) => ({ name: `group_${i}`, count: 9 }));
    expect(Buffer.byteLength(renderDiscoveryContract(groups))).toBeLessThan(1024);
  });

  it('takes groups and counts from the index, with optional descriptions', () => {
    const groups = contractGroups(createToolIndex(sampleCatalog()), { crm: 'Contacts', elsewhere: 'ignored' });
    expect(groups).toEqual([
      { name: 'billing', count: 3 },
      { name: 'crm', count: 3, description: 'Contacts' },
      { name: 'mcp.github', count: 3 },
    ]);
  });
});
