// Classifies what the Anthropic and OpenAI SDKs throw (both share one error-class design) into an
// AttemptFailure. Decisions rest on the HTTP status, the error class, the error `type` field of a
// mid-stream error event, or a socket error code — never on the wording of a message.

import { retryAfterFromHeaders, type AttemptFailure, type HeaderSource } from './retry.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of one SDK. */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

/** Mid-stream error types that say the request itself is wrong, so retrying cannot help. */
const PERMANENT_STREAM_ERROR_TYPES = new Set([
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'billing_error',
  'not_found_error',
]);

/** Socket and undici error codes of a connection that failed or dropped. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

interface ApiErrorShape {
  status?: number;
  headers?: HeaderSource;
  error?: unknown;
  type?: unknown;
}

export interface ClassifyContext {
  /** Hint for a 401/403, e.g. "check the model block's api_key". */
  authHint: string;
  /** The model id, quoted in a 404. */
  model: string;
  /** The server's base URL, named when a connection fails. */
  endpoint: string;
}

export function classifySdkError(error: unknown, classes: SdkErrorClasses, context: ClassifyContext): AttemptFailure {
  if (error instanceof classes.APIUserAbortError) {
    // Only reachable when the SDK aborted on its own; our timeout and the caller's abort are
    // recognised by the retry loop before classification.
    return { kind: 'aborted', retryable: false, reason: 'request aborted' };
  }
  if (error instanceof classes.APIConnectionTimeoutError) {
    return { kind: 'timeout', retryable: true, reason: 'request timed out' };
  }
  if (error instanceof classes.APIConnectionError) {
    return { kind: 'network', retryable: true, reason: `connection to ${context.endpoint} failed${networkCodeSuffix(error)}` };
  }
  if (error instanceof classes.APIError) {
    const shape = error as ApiErrorShape;
    const detail = apiErrorMessage(shape.error);
    if (shape.status === undefined) return classifyStreamError(shape, detail);
    return classifyStatus(shape.status, detail, retryAfterFromHeaders(shape.headers), context);
  }
  const code = networkCode(error);
  if (code !== undefined) {
    return { kind: 'network', retryable: true, reason: `connection dropped (${code})` };
  }
  // The SDKs parse each streamed event with JSON.parse and let its SyntaxError through: the stream
  // was garbled on the way (a proxy, a server that broke off mid-event), like a dropped connection.
  if (error instanceof SyntaxError) {
    return { kind: 'network', retryable: true, reason: 'the response stream sent an event that is not JSON' };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: 'protocol', retryable: false, reason: `unexpected error: ${oneLine(message)}` };
}

export function classifyStatus(
  status: number,
  detail: string | undefined,
  retryAfterMs: number | undefined,
  context: ClassifyContext,
): AttemptFailure {
  const withDetail = (text: string): string => (detail ? `${text}: ${detail}` : text);
  const retry = retryAfterMs !== undefined ? { retryAfterMs } : {};
  if (status === 429) return { kind: 'http', retryable: true, status, reason: withDetail('429 rate limited'), ...retry };
  if (status === 529) return { kind: 'http', retryable: true, status, reason: withDetail('529 overloaded'), ...retry };
  if (status === 408) return { kind: 'http', retryable: true, status, reason: withDetail('408 request timeout'), ...retry };
  if (status >= 500) return { kind: 'http', retryable: true, status, reason: withDetail(`${status} server error`), ...retry };
  const reasons: Record<number, string> = {
    400: withDetail('400 bad request'),
    401: `401 authentication failed (${context.authHint})`,
    402: withDetail('402 payment required'),
    403: `${withDetail('403 permission denied')} (${context.authHint})`,
    404: `${withDetail('404 not found')} (check the model id "${context.model}" and the model block's base_url)`,
    413: withDetail('413 request too large'),
    422: withDetail('422 unprocessable request'),
  };
  return { kind: 'http', retryable: false, status, reason: reasons[status] ?? withDetail(`${status} request rejected`) };
}

function classifyStreamError(shape: ApiErrorShape, detail: string | undefined): AttemptFailure {
  const type = typeof shape.type === 'string' ? shape.type : errorBodyType(shape.error);
  const label = type ? `stream error ${type}` : 'stream error';
  const reason = detail ? `${label}: ${detail}` : label;
  return { kind: 'stream', retryable: !(type !== undefined && PERMANENT_STREAM_ERROR_TYPES.has(type)), reason };
}

/** The human message in an SDK error body: `{error:{message}}` (Anthropic) or `{message}` (OpenAI). */
function apiErrorMessage(body: unknown): string | undefined {
  const record = asRecord(body);
  if (!record) return undefined;
  const nested = asRecord(record['error']);
  const message = nested?.['message'] ?? record['message'];
  return typeof message === 'string' && message.trim() !== '' ? oneLine(message) : undefined;
}

function errorBodyType(body: unknown): string | undefined {
  const record = asRecord(body);
  const type = asRecord(record?.['error'])?.['type'] ?? record?.['type'];
  return typeof type === 'string' ? type : undefined;
}

/** The first known network error code on the error or along its `cause` chain. */
export function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    const record = asRecord(current);
    const code = record?.['code'];
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return code;
    current = record?.['cause'];
  }
  return undefined;
}

function networkCodeSuffix(error: unknown): string {
  const code = networkCode(error);
  return code ? ` (${code})` : '';
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
