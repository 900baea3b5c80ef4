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

  it('names an image it already carries inside the structured content instead of repeating its base64', () => {
    const image = { type: 'image' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    const r = toToolResult({ content: [image], structuredContent: { content: [image], note: 'kept' } });
    expect(r.structured).toEqual({ content: [image], note: 'kept' });
    expect(r.content[1]).toEqual({ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' });
    const shown = JSON.parse((r.content[0] as { text: string }).text);
    expect(shown).toEqual({ content: [{ type: 'image', mimeType: 'image/png', data: '[image 1 (image/png) of this result, not repeated here]' }], note: 'kept' });
  });

  it('shows a blob of a text media type as its text, and one that is not UTF-8 as binary', () => {
    const text = toToolResult({ content: [{ type: 'resource', resource: { uri: 'mem://a.json', mimeType: 'application/json; charset=utf-8', blob: Buffer.from('{"a":1}').toString('base64') } }] });
    expect(text.content).toEqual([{ type: 'text', text: '[resource mem://a.json (application/json; charset=utf-8)]\n{"a":1}' }]);
    const invalid = toToolResult({ content: [{ type: 'resource', resource: { uri: 'mem://b.txt', mimeType: 'text/plain', blob: Buffer.from([0xff, 0xfe, 0x41]).toString('base64') } }] });
    expect(invalid.content).toEqual([{ type: 'text', text: '[resource mem://b.txt (text/plain): 3 bytes of binary data, not shown]' }]);
  });

  it('keeps content addressed to the user alone out of what the model sees', () => {
    const r = toToolResult({
      content: [
        { type: 'text', text: 'for you', annotations: { audience: ['user'] } },
        { type: 'text', text: 'for both', annotations: { audience: ['user', 'assistant'] } },
      ],
    });
    expect(r.content).toEqual([{ type: 'text', text: 'for both' }]);
    expect(r.resources).toEqual([{ kind: 'resource', mimeType: 'text/plain', text: 'for you' }]);
    expect(toToolResult({ content: [{ type: 'text', text: 'x', annotations: { audience: ['user'] } }] }).content).toEqual([
      { type: 'text', text: '(the output was addressed to the user only: 1 part not shown)' },
    ]);
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

describe('toolInfoFromSdk hints and task-only tools', () => {
  it('keeps the true annotations as hints in a fixed order and marks a task-only tool', () => {
    const info = toolInfoFromSdk({
      name: 'research',
      inputSchema: { type: 'object' },
      annotations: { openWorldHint: true, readOnlyHint: true, destructiveHint: false },
      execution: { taskSupport: 'required' },
    });
    expect(info.hints).toEqual(['read-only', 'open-world']);
    expect(info.idempotent).toBe(true);
    expect(info.taskRequired).toBe(true);
    const plain = toolInfoFromSdk({ name: 'x', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } });
    expect(plain.hints).toBeUndefined();
    expect(plain.taskRequired).toBeUndefined();
  });
});
