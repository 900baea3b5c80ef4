import { describe, expect, it } from 'vitest';

import { toToolResult } from '../../../runtime/tools/mcp/results.js';
import { mcpApiName, toolInfoFromSdk } from '../../../runtime/tools/mcp/toolInfo.js';

describe('toToolResult', () => {
  it('keeps audio verbatim and tells the model it is there', () => {
    const r = toToolResult({ content: [{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }] });
    expect(r).toEqual({
      isError: false,
      content: [{ type: 'text', text: '[audio: audio/wav, 3 bytes, not shown]' }],
      resources: [{ kind: 'audio', mimeType: 'audio/wav', blob: 'AAAA' }],
    });
  });

  it('shows an image blob resource as an image', () => {
    const r = toToolResult({ content: [{ type: 'resource', resource: { uri: 'mem://a.png', mimeType: 'image/png', blob: 'iVBO' } }] });
    expect(r.content).toEqual([{ type: 'image', mediaType: 'image/png', data: 'iVBO' }]);
    expect(r.resources).toEqual([{ kind: 'resource', uri: 'mem://a.png', mimeType: 'image/png', blob: 'iVBO' }]);
  });

  it('never returns empty content', () => {
    expect(toToolResult({ content: [] })).toEqual({ isError: false, content: [{ type: 'text', text: '(no output)' }] });
    expect(toToolResult({ content: [], isError: true })).toEqual({
      isError: true,
      content: [{ type: 'text', text: '(the tool reported an error without details)' }],
    });
  });

  it('keeps structured content on error results too', () => {
    const r = toToolResult({ content: [], structuredContent: { code: 7 }, isError: true });
    expect(r).toEqual({ isError: true, structured: { code: 7 }, content: [{ type: 'text', text: '{\n  "code": 7\n}' }] });
  });
});

describe('MCP tool names', () => {
  it('replaces characters the model APIs reject', () => {
    expect(mcpApiName('fs', 'read_file')).toBe('mcp_fs_read_file');
    expect(mcpApiName('git-hub', 'repos/list.all')).toBe('mcp_git-hub_repos_list_all');
  });

  it('shortens over-long names to 64 characters, keeping them distinct', () => {
    const a = mcpApiName('server', `${'x'.repeat(70)}_a`);
    const b = mcpApiName('server', `${'x'.repeat(70)}_b`);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toBe(mcpApiName('server', `${'x'.repeat(70)}_a`));
  });

  it('derives idempotency from readOnlyHint or idempotentHint, and falls back to the title', () => {
    const base = { name: 't', inputSchema: { type: 'object' as const } };
    expect(toolInfoFromSdk({ ...base, annotations: { readOnlyHint: true } }).idempotent).toBe(true);
    expect(toolInfoFromSdk({ ...base, annotations: { idempotentHint: true } }).idempotent).toBe(true);
    expect(toolInfoFromSdk({ ...base, annotations: { destructiveHint: true } }).idempotent).toBe(false);
    expect(toolInfoFromSdk(base)).toEqual({ name: 't', description: '', inputSchema: { type: 'object' }, idempotent: false });
    expect(toolInfoFromSdk({ ...base, title: 'Do T' }).description).toBe('Do T');
  });
});
