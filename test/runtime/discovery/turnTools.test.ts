import { describe, expect, it } from 'vitest';
import { discoveryToolDefinitions, shouldUseDiscovery } from '../../../runtime/discovery/definitions.js';
import { createDiscoveryState } from '../../../runtime/discovery/state.js';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import { handleDiscoveryCall, toolsForTurn } from '../../../runtime/discovery/turnTools.js';
import { sampleCatalog } from './makeTool.js';

describe('toolsForTurn', () => {
  it('lists discovery tools, then always_load in declared order, then loaded tools in load order', () => {
    const all = sampleCatalog();
    const state = createDiscoveryState(createToolIndex(all));
    state.markLoaded('mcp_github_create_issue');
    state.markLoaded('tools.billing_void_invoice');
    state.markLoaded('tools.crm_search_contacts'); // also always_load: listed once, in its always_load slot
    const names = toolsForTurn(state, ['tools.crm_search_contacts', 'tools.billing_issue_refund'], all).map((d) => d.name);
    expect(names).toEqual([
      'search_tools',
      'get_tool_schema',
      'tools_crm_search_contacts',
      'tools_billing_issue_refund',
      'mcp_github_create_issue',
      'tools_billing_void_invoice',
    ]);
  });

  it('only appends from turn to turn, so the previous list stays a prefix (prompt cache)', () => {
    const all = sampleCatalog();
    const state = createDiscoveryState(createToolIndex(all));
    const always = ['tools.crm_create_contact'];
    const turn1 = toolsForTurn(state, always, all);
    state.markLoaded('mcp_github_merge_pull_request');
    const turn2 = toolsForTurn(state, always, all);
    state.markLoaded('tools_billing_create_invoice');
    const turn3 = toolsForTurn(state, always, all);
    expect(turn2.slice(0, turn1.length)).toEqual(turn1);
    expect(turn3.slice(0, turn2.length)).toEqual(turn2);
    expect(turn3.length).toBe(turn1.length + 2);
  });

  it('sends full definitions for listed tools and skips always_load entries outside the authorized set', () => {
    const all = sampleCatalog().slice(0, 3);
    const state = createDiscoveryState(createToolIndex(all));
    const defs = toolsForTurn(state, ['mcp.github.create_issue', 'tools_crm_delete_contact'], all);
    expect(defs.map((d) => d.name)).toEqual(['search_tools', 'get_tool_schema', 'tools_crm_delete_contact']);
    expect(defs[2]).toEqual({ name: 'tools_crm_delete_contact', description: all[1]?.description, inputSchema: all[1]?.inputSchema });
  });
});

describe('handleDiscoveryCall', () => {
  it('dispatches the two discovery tools and passes on anything else', () => {
    const index = createToolIndex(sampleCatalog());
    const state = createDiscoveryState(index);
    expect(handleDiscoveryCall('search_tools', { query: 'merge' }, index, state)?.isError).toBe(false);
    expect(handleDiscoveryCall('get_tool_schema', { name: 'mcp_github_merge_pull_request' }, index, state)?.isError).toBe(false);
    expect(state.loaded()).toEqual(['mcp.github.merge_pull_request']);
    expect(handleDiscoveryCall('mcp_github_merge_pull_request', {}, index, state)).toBeUndefined();
  });
});

describe('discovery policy and definitions', () => {
  it('uses discovery above the threshold in auto mode, always when on, never when off', () => {
    expect(shouldUseDiscovery(31, { discovery: 'auto', threshold: 30 })).toBe(true);
    expect(shouldUseDiscovery(30, { discovery: 'auto', threshold: 30 })).toBe(false);
    expect(shouldUseDiscovery(2, { discovery: 'on', threshold: 30 })).toBe(true);
    expect(shouldUseDiscovery(500, { discovery: 'off', threshold: 30 })).toBe(false);
  });

  it('defines search_tools and get_tool_schema with short descriptions and closed schemas', () => {
    const defs = discoveryToolDefinitions();
    expect(defs.map((d) => d.name)).toEqual(['search_tools', 'get_tool_schema']);
    for (const d of defs) {
      expect(d.description.length).toBeLessThan(200);
      expect(d.inputSchema['additionalProperties']).toBe(false);
    }
    expect(defs[1]?.inputSchema['required']).toEqual(['name']);
    expect(Object.keys(defs[0]?.inputSchema['properties'] as object)).toEqual(['query', 'group', 'page']);
  });
});
