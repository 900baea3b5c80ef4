// One stored run read whole: its tasks, items, sessions and transcripts (`squadron inspect`, the
// server's GET /v1/runs/{id}), and a stored tool result by its handle. Typed results (camelCase);
// inspectJson.ts turns an inspection into the documented `--json` document.

export { inspectRun, inspectStoredResult } from '../runtime/inspect/inspect.js';
export type { RunInspection, SessionTranscript, StoredResultInspection } from '../runtime/inspect/inspect.js';
export type { Part } from '../runtime/providers/types.js';
