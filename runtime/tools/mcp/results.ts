// Converts an MCP `tools/call` result into a ToolResult without losing anything: text and images map
// to canonical parts; embedded resources, resource links and audio are kept verbatim in `resources`
// with a text rendering for the model; `structuredContent` and `isError` pass through.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { ToolResultContent } from '../../providers/types.js';
import type { ToolResult, ToolResultResource } from '../types.js';

export function toToolResult(result: CallToolResult): ToolResult {
  const content: ToolResultContent[] = [];
  const resources: ToolResultResource[] = [];
  let sawText = false;

  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        sawText = true;
        break;
      case 'image':
        content.push({ type: 'image', mediaType: block.mimeType, data: block.data });
        break;
      case 'audio':
        resources.push({ kind: 'audio', mimeType: block.mimeType, blob: block.data });
        content.push({ type: 'text', text: `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]` });
        break;
      case 'resource_link': {
        const link: ToolResultResource = { kind: 'resource_link', uri: block.uri, name: block.name };
        if (block.mimeType !== undefined) link.mimeType = block.mimeType;
        resources.push(link);
        const about = block.description ? `: ${block.description}` : '';
        content.push({ type: 'text', text: `[resource link: ${block.name} <${block.uri}>${about}]` });
        break;
      }
      case 'resource': {
        const r = block.resource;
        const kept: ToolResultResource = { kind: 'resource', uri: r.uri };
        if (r.mimeType !== undefined) kept.mimeType = r.mimeType;
        const mime = r.mimeType ?? 'unknown type';
        if ('text' in r && typeof r.text === 'string') {
          kept.text = r.text;
          content.push({ type: 'text', text: `[resource ${r.uri} (${mime})]\n${r.text}` });
          sawText = true;
        } else if ('blob' in r && typeof r.blob === 'string') {
          kept.blob = r.blob;
          if (r.mimeType?.startsWith('image/')) content.push({ type: 'image', mediaType: r.mimeType, data: r.blob });
          else content.push({ type: 'text', text: `[resource ${r.uri} (${mime}): ${base64Bytes(r.blob)} bytes of binary data, not shown]` });
        }
        resources.push(kept);
        break;
      }
      default:
        // A content type from a newer protocol version: show that it was there rather than drop it.
        content.push({ type: 'text', text: `[unsupported MCP content of type ${JSON.stringify((block as { type: unknown }).type)}]` });
    }
  }

  const out: ToolResult = { content, isError: result.isError === true };
  if (result.structuredContent !== undefined) {
    out.structured = result.structuredContent;
    // Servers may send structured data alone; the model still needs to read it.
    if (!sawText) content.unshift({ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) });
  }
  if (resources.length > 0) out.resources = resources;
  if (content.length === 0) content.push({ type: 'text', text: out.isError ? '(the tool reported an error without details)' : '(no output)' });
  return out;
}

function base64Bytes(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - padding);
}
