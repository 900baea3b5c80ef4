// What the model gets instead of a stored result: what it is and how large, a preview (the shape of
// JSON; the head and tail of text; a note per image), the handle and how to read more. A function of
// the payload and the limit alone, so the same result always gives the same bytes (resume rebuilds
// the identical request).

import type { StoredPayload } from '../../core/storedResults.js';
import { describe, jsonShape, largestArrayPath } from './jsonShape.js';
import { headBytes, previewBudget, tailBytes } from './size.js';
import { groupDigits } from '../../core/digits.js';

export function renderPreview(payload: StoredPayload, handle: string, tokens: number, maxTokens: number, json: unknown): string {
  const budget = previewBudget(maxTokens);
  const bytes = Buffer.byteLength(payload.text, 'utf8');
  const lines: string[] = [
    `[stored result ${handle}] This tool result is too large for your context (≈${groupDigits(tokens)} tokens; the limit for one result is ${groupDigits(maxTokens)}), so it was stored whole.`,
  ];
  let readHint: string;
  if (payload.format === 'json') {
    lines.push(`It is JSON, ${groupDigits(bytes)} bytes: ${describe(json)}. Its shape (arrays cut to their first items, long strings shortened):`);
    lines.push(jsonShape(json, budget));
    const path = largestArrayPath(json);
    readHint = `result_read {"handle":"${handle}","path":"${path}","offset":0}`;
  } else if (bytes > 0) {
    const lineCount = countLines(payload.text);
    lines.push(`It is text, ${groupDigits(bytes)} bytes in ${groupDigits(lineCount)} lines (${groupDigits(payload.text.length)} characters). Its start and end:`);
    const half = Math.floor(budget / 2);
    const head = atLineEnd(headBytes(payload.text, half));
    const tail = atLineStart(tailBytes(payload.text, half));
    const omitted = bytes - Buffer.byteLength(head, 'utf8') - Buffer.byteLength(tail, 'utf8');
    lines.push(head.replace(/\n$/, ''), `[… ${groupDigits(omitted)} bytes not shown …]`, tail.replace(/\n$/, ''));
    readHint = `result_read {"handle":"${handle}","offset":${head.length}}`;
  } else {
    readHint = `result_read {"handle":"${handle}","image":1}`;
  }
  payload.images.forEach((image, i) => {
    lines.push(`[image ${i + 1}: ${image.mediaType}, ${groupDigits(base64Bytes(image.data))} bytes, not shown; read it with result_read {"handle":"${handle}","image":${i + 1}}]`);
  });
  lines.push(`Read more with ${readHint}, or search it with result_search {"handle":"${handle}","pattern":"..."}.`);
  return lines.join('\n');
}

/** Whole lines when the cut leaves at least half of the head; the cut as is otherwise (one long line). */
function atLineEnd(head: string): string {
  const end = head.lastIndexOf('\n');
  return end >= head.length / 2 ? head.slice(0, end + 1) : head;
}

function atLineStart(tail: string): string {
  const start = tail.indexOf('\n');
  return start >= 0 && start < tail.length / 2 ? tail.slice(start + 1) : tail;
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

export function base64Bytes(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - padding);
}
