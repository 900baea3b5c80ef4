// One reader of a context_views row for both backends: the head's parts restored (redaction) and
// validated like a message's.

import type { ColumnCodec } from './columns.js';
import type { ContextViewKind, ContextViewRow } from './repos/contextViews.js';
import { parseJsonColumn, PartsSchema } from './rowSchemas.js';
import { StoreError } from './errors.js';

export function readContextViewRow(codec: ColumnCodec, row: Record<string, unknown>): ContextViewRow {
  const kind = row['kind'];
  if (kind !== 'compaction' && kind !== 'pruning') throw new StoreError('CORRUPT_ROW', `unreadable context_views row: kind ${String(kind)}`);
  const sessionId = String(row['session_id']);
  const seq = Number(row['seq']);
  const head = parseJsonColumn(codec, PartsSchema, `context_views ${sessionId}/${seq} head_json`, String(row['head_json']));
  return {
    sessionId,
    seq,
    kind: kind as ContextViewKind,
    afterSeq: Number(row['after_seq']),
    keepFrom: Number(row['keep_from']),
    head,
    inputTokens: Number(row['input_tokens']),
    dropped: Number(row['dropped']),
    createdAt: String(row['created_at']),
  };
}
