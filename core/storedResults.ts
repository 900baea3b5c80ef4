// A stored result: what a tool returned when it was too large for the model's context, kept whole
// in the store and read back by handle (docs/concepts/context.md). Bottom layer: imports only core/.

import type { ToolResultResource } from './toolResults.js';

export interface StoredImage {
  mediaType: string;
  /** base64 */
  data: string;
}

export interface StoredPayload {
  /** `json` when the result's text is one JSON object or array; it is then read by JSON path. */
  format: 'json' | 'text';
  /** The result's text parts, joined by a blank line (for `json`, the JSON text as received). */
  text: string;
  images: StoredImage[];
  /** Kept so nothing the tool returned is lost (MCP structured content beside its text, resources). */
  structured?: unknown;
  resources?: ToolResultResource[];
}

/** `res_` and 16 hex digits: the start of the SHA-256 of the redacted payload. */
export const HANDLE_PATTERN = /\bres_[0-9a-f]{16}\b/g;
