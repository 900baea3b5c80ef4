// Classifies what a Gemini request through the @google/genai SDK throws. The SDK raises `ApiError`
// with the HTTP status (or the `code` of an error chunk inside a stream) and the body as its message:
// a google.rpc.Status `{error: {code, message, status, details}}`, whose RetryInfo `retryDelay` says
// how long a 429 RESOURCE_EXHAUSTED wants us to wait. Anything else that ends a stream once it has
// begun is a dropped stream. Decisions rest on the status, the error class or a socket code.

import { ApiError } from '@google/genai';
import { AttemptFailed, type AttemptFailure } from './retry.js';
import { classifyStatus, networkCode, oneLine, type ClassifyContext } from './sdkErrors.js';

export function classifyGeminiError(error: unknown, context: ClassifyContext): AttemptFailure {
  if (error instanceof ApiError) {
    const body = statusBody(error.message);
    const detail = body?.message !== undefined ? oneLine(body.status !== undefined ? `${body.status}: ${body.message}` : body.message) : undefined;
    return classifyStatus(error.status, detail, body?.retryDelayMs, context);
  }
  const code = networkCode(error);
  if (code !== undefined) return { kind: 'network', retryable: true, reason: `connection to ${context.endpoint} failed (${code})` };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: 'protocol', retryable: false, reason: `unexpected error: ${oneLine(message)}` };
}

/** What broke off a stream after it began: the server's error chunk stays itself, the rest is a drop. */
export function droppedStream(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = networkCode(error);
  return new AttemptFailed({ kind: 'stream', retryable: true, reason: `stream broke off${code !== undefined ? ` (${code})` : ''}` });
}

interface StatusBody {
  message?: string;
  status?: string;
  retryDelayMs?: number;
}

/** The google.rpc.Status in an ApiError's message (the SDK puts the JSON body there), if any. */
function statusBody(message: string): StatusBody | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.slice(start));
  } catch {
    return undefined;
  }
  const error = record(record(parsed)?.['error']);
  if (!error) return undefined;
  const out: StatusBody = {};
  if (typeof error['message'] === 'string' && error['message'].trim() !== '') out.message = error['message'];
  if (typeof error['status'] === 'string') out.status = error['status'];
  for (const detail of Array.isArray(error['details']) ? error['details'] : []) {
    const delay = record(detail)?.['retryDelay'];
    const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
    if (match) out.retryDelayMs = Math.round(Number(match[1]) * 1000);
  }
  return out;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
