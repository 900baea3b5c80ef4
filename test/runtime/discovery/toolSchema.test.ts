import { describe, expect, it } from 'vitest';
import { createDiscoveryState } from '../../../runtime/discovery/state.js';
import { getToolSchema, unknownToolResult } from '../../../runtime/discovery/toolSchema.js';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import type { ToolResult } from '../../../runtime/tools/types.js';
import { sampleCatalog } from './makeTool.js';

const text = (r: ToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');

describe('get_tool_schema', () => {
  it('returns name, description and input schema, and marks the tool loaded', () => {
    const index = createToolIndex(sampleCatalog());
    const state = createDiscoveryState(index);
    const result = getToolSchema(index, state, { name: 'tools_billing_void_invoice' });
    expect(result.isError).toBe(false);
    expect(JSON.parse(text(result))).toEqual({
      name: 'tools_billing_void_invoice',
      description: 'Void an open invoice so it can no longer be paid.',
      input_schema: { type: 'object', properties: { invoice_id: { type: 'string', description: 'Invoice ID.' } }, additionalProperties: false },
    });
    expect(state.loaded()).toEqual(['tools.billing_void_invoice']);
  });

  it('accepts a canonical ref as well as an API name', () => {
    const index = createToolIndex(sampleCatalog());
    const state = createDiscoveryState(index);
    expect(JSON.parse(text(getToolSchema(index, state, { name: 'mcp.github.create_issue' })))['name']).toBe('mcp_github_create_issue');
    expect(state.isLoaded('mcp_github_create_issue')).toBe(true);
  });

  it('gives an unauthorized tool the same unknown-tool error as one that does not exist', () => {
    const catalog = sampleCatalog();
    const hidden = catalog.find((t) => t.apiName === 'tools_crm_delete_contact');
    const index = createToolIndex(catalog.filter((t) => t !== hidden));
    const state = createDiscoveryState(index);
    const unauthorized = getToolSchema(index, state, { name: 'tools_crm_delete_contact' });
    const invented = getToolSchema(index, state, { name: 'tools_crm_delete_kontakt' });
    expect(unauthorized.isError).toBe(true);
    expect(text(unauthorized)).toMatch(/^Unknown tool "tools_crm_delete_contact"\. Use search_tools/);
    // Same wording apart from the echoed name; nothing of the hidden tool leaks.
    const shape = (s: string) => s.replace(/"[^"]*"/, '"<name>"').replace(/ Similar: .*$/, '');
    expect(shape(text(unauthorized))).toBe(shape(text(invented)));
    expect(text(unauthorized)).not.toContain(hidden?.description ?? '?');
    expect(state.loaded()).toEqual([]);
  });

  it('suggests similar names from the index only', () => {
    const index = createToolIndex(sampleCatalog());
    const result = getToolSchema(index, createDiscoveryState(index), { name: 'tools_crm_create_contacts' });
    expect(text(result)).toMatch(/Similar: tools_crm_create_contact/);
  });

  it('reports malformed input as an error result', () => {
    const index = createToolIndex(sampleCatalog());
    const result = getToolSchema(index, createDiscoveryState(index), { tool: 'x' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/get_tool_schema: invalid input: name/);
  });
});

describe('unknownToolResult', () => {
  it('answers a name outside the index with the unknown-tool error', () => {
    const index = createToolIndex(sampleCatalog().slice(0, 3));
    expect(index.lookup('tools_crm_create_contact')?.ref).toBe('tools.crm_create_contact');
    const refused = unknownToolResult(index, 'mcp_github_merge_pull_request');
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Unknown tool "mcp_github_merge_pull_request"/);
  });
});

describe('DiscoveryState', () => {
  it('keeps load order, ignores repeats and refuses tools outside the index', () => {
    const index = createToolIndex(sampleCatalog().slice(0, 4));
    const state = createDiscoveryState(index);
    expect(state.markLoaded('tools_billing_create_invoice')).toBe(true);
    expect(state.markLoaded('tools.crm_create_contact')).toBe(true);
    expect(state.markLoaded('tools_billing_create_invoice')).toBe(true);
    expect(state.markLoaded('mcp.github.create_issue')).toBe(false);
    expect(state.loaded()).toEqual(['tools.billing_create_invoice', 'tools.crm_create_contact']);
  });

  it('restores a stored list on resume, dropping tools no longer authorized', () => {
    const index = createToolIndex(sampleCatalog().slice(0, 4));
    const state = createDiscoveryState(index, ['tools.crm_search_contacts', 'mcp.github.create_issue', 'tools.crm_create_contact']);
    expect(state.loaded()).toEqual(['tools.crm_search_contacts', 'tools.crm_create_contact']);
  });

  it('hands out copies, so callers cannot change the state behind its back', () => {
    const index = createToolIndex(sampleCatalog());
    const state = createDiscoveryState(index, ['tools.crm_create_contact']);
    state.loaded().push('mcp.github.create_issue');
    expect(state.loaded()).toEqual(['tools.crm_create_contact']);
  });
});
