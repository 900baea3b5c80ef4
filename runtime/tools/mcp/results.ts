// Converts an MCP `tools/call` result into a ToolResult without losing anything: text and images map
// to canonical parts; embedded resources, resource links and audio are kept verbatim in `resources`
// with a text rendering for the model; `structuredContent` and `isError` pass through. Each payload
// reaches the model once: structured content shown as JSON names the images it repeats instead of
// repeating their base64, a text blob (text/*, JSON, XML) is shown as its text, and content meant
// only for the user (`audience: ["user"]`) is kept but not sent to the model.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { jsonTooDeep, tooDeepMessage } from '../../../core/jsonDepth.js';
import type { ToolResultContent } from '../../providers/types.js';
import type { ToolResult, ToolResultResource } from '../types.js';

type Block = NonNullable<CallToolResult['content']>[number];

export function toToolResult(result: CallToolResult): ToolResult {
  // Bounded before anything walks it (redaction, the store, the model's request): see core/jsonDepth.ts.
  if (jsonTooDeep(result.structuredContent) || jsonTooDeep(result.content)) {
    return { content: [{ type: 'text', text: `${tooDeepMessage("The server's result")}: it was not kept. Ask for less, or a flatter form.` }], isError: true };
  }
  const content: ToolResultContent[] = [];
  const resources: ToolResultResource[] = [];
  /** base64 payloads already in `content`, by the words that name them there. */
  const shown = new Map<string, string>();
  let sawText = false;
  let hiddenFromModel = 0;

  for (const block of result.content ?? []) {
    if (forUserOnly(block)) {
      hiddenFromModel++;
      keepForUser(block, resources);
      continue;
    }
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        sawText = true;
        break;
      case 'image':
        content.push({ type: 'image', mediaType: block.mimeType, data: block.data });
        shown.set(block.data, `image ${countOf(shown) + 1} (${block.mimeType}) of this result`);
        break;
      case 'audio':
        resources.push({ kind: 'audio', mimeType: block.mimeType, blob: block.data });
        content.push({ type: 'text', text: `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]` });
        shown.set(block.data, `audio (${block.mimeType}) of this result`);
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
          const text = isTextual(r.mimeType) ? utf8(r.blob) : undefined;
          if (text !== undefined) {
            content.push({ type: 'text', text: `[resource ${r.uri} (${mime})]\n${text}` });
            sawText = true;
          } else if (r.mimeType?.startsWith('image/')) {
            content.push({ type: 'image', mediaType: r.mimeType, data: r.blob });
            shown.set(r.blob, `the image of resource ${r.uri}`);
          } else {
            content.push({ type: 'text', text: `[resource ${r.uri} (${mime}): ${base64Bytes(r.blob)} bytes of binary data, not shown]` });
            shown.set(r.blob, `the binary data of resource ${r.uri}`);
          }
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
    // Servers may send structured data without a text rendering; the model still needs to read it,
    // but not a second copy of an image it already has.
    if (!sawText) content.unshift({ type: 'text', text: JSON.stringify(withoutShown(result.structuredContent, shown), null, 2) });
  }
  if (resources.length > 0) out.resources = resources;
  if (content.length === 0) {
    const empty = hiddenFromModel > 0 ? `(the output was addressed to the user only: ${hiddenFromModel} part${hiddenFromModel === 1 ? '' : 's'} not shown)` : '(no output)';
    content.push({ type: 'text', text: out.isError ? '(the tool reported an error without details)' : empty });
  }
  return out;
}

/** Content annotated for the user alone (`audience` without "assistant"). */
function forUserOnly(block: Block): boolean {
  const audience = (block as { annotations?: { audience?: unknown } }).annotations?.audience;
  return Array.isArray(audience) && audience.length > 0 && !audience.includes('assistant');
}

/** What the model does not see is still stored with the result. */
function keepForUser(block: Block, resources: ToolResultResource[]): void {
  switch (block.type) {
    case 'text':
      resources.push({ kind: 'resource', text: block.text, mimeType: 'text/plain' });
      break;
    case 'image':
    case 'audio':
      resources.push({ kind: block.type === 'audio' ? 'audio' : 'resource', mimeType: block.mimeType, blob: block.data });
      break;
    case 'resource_link':
      resources.push({ kind: 'resource_link', uri: block.uri, name: block.name, ...(block.mimeType !== undefined ? { mimeType: block.mimeType } : {}) });
      break;
    case 'resource': {
      const r = block.resource;
      const kept: ToolResultResource = { kind: 'resource', uri: r.uri };
      if (r.mimeType !== undefined) kept.mimeType = r.mimeType;
      if ('text' in r && typeof r.text === 'string') kept.text = r.text;
      if ('blob' in r && typeof r.blob === 'string') kept.blob = r.blob;
      resources.push(kept);
      break;
    }
    default:
      break;
  }
}

/** A copy of `value` with every string that repeats a payload of `shown` replaced by its name. */
function withoutShown(value: unknown, shown: ReadonlyMap<string, string>): unknown {
  if (shown.size === 0) return value;
  if (typeof value === 'string') {
    const name = shown.get(value) ?? shown.get(value.replace(/^data:[^;,]*;base64,/, ''));
    return name === undefined ? value : `[${name}, not repeated here]`;
  }
  if (Array.isArray(value)) return value.map((v) => withoutShown(v, shown));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutShown(v, shown)]));
  }
  return value;
}

function countOf(shown: ReadonlyMap<string, string>): number {
  return [...shown.values()].filter((n) => n.startsWith('image ')).length;
}

/** Media types whose bytes are text: text/*, JSON, XML, YAML, JavaScript and their `+json`/`+xml` kin. */
function isTextual(mimeType: string | undefined): boolean {
  if (mimeType === undefined) return false;
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('text/')) return true;
  if (/\+(json|xml|yaml)$/.test(type)) return true;
  return ['application/json', 'application/xml', 'application/yaml', 'application/x-yaml', 'application/javascript', 'application/x-ndjson', 'application/toml', 'application/sql', 'image/svg+xml'].includes(type);
}

/** The UTF-8 text of a base64 payload, or undefined when it is not valid UTF-8. */
function utf8(b64: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(b64, 'base64'));
  } catch {
    return undefined;
  }
}

function base64Bytes(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - padding);
}
