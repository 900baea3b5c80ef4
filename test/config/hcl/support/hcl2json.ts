// Compares our parser with HashiCorp's (through @cdktf/hcl2json) on one document: both accept it
// and the JSON projections are deep-equal, or both reject it with the first error on the same
// line; a conversion failure of hcl2json (not a syntax error) must match a ProjectionConflictError.

import { isDeepStrictEqual } from 'node:util';
import { parse } from '@cdktf/hcl2json';
import { parseHcl, toJsonProjection, ProjectionConflictError } from '../../../../config/hcl/index.js';

export interface Comparison {
  ok: boolean;
  /** What happened, for failure messages. */
  detail: string;
  /** Whether hcl2json accepted the document. */
  valid: boolean;
  /** For rejected documents: whether the first error's column also agreed. */
  columnAgrees?: boolean;
  ours?: unknown;
  theirs?: unknown;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function compareWithHcl2json(source: string, fileName = 'doc.hcl'): Promise<Comparison> {
  let theirs: unknown;
  let theirError: string | undefined;
  try {
    theirs = await parse(fileName, source);
  } catch (err) {
    theirError = String(err);
  }
  const { file, diagnostics } = parseHcl(source, fileName);
  const first = diagnostics[0];

  if (theirError !== undefined) {
    const m = new RegExp(`${escapeRegExp(fileName)}:(\\d+),(\\d+)`).exec(theirError);
    const isSyntax = theirError.includes('parse config');
    if (isSyntax) {
      if (!first) return { ok: false, valid: false, detail: `hcl2json rejects (${theirError.slice(0, 300)}) but we accept` };
      const line = m ? Number(m[1]) : -1;
      const column = m ? Number(m[2]) : -1;
      const ok = first.line === line;
      return {
        ok,
        valid: false,
        columnAgrees: first.column === column,
        detail: `hcl2json: ${theirError.slice(0, 300)}\nours: ${first.line}:${first.column} ${first.message}`,
      };
    }
    // hcl2json parsed the syntax but could not convert it to JSON.
    if (first) return { ok: false, valid: false, detail: `hcl2json conversion failed (${theirError.slice(0, 200)}) but we report a syntax error: ${first.message}` };
    try {
      const ours = toJsonProjection(file);
      return { ok: false, valid: false, detail: `hcl2json conversion failed (${theirError.slice(0, 200)}) but our projection succeeded`, ours };
    } catch (err) {
      return { ok: err instanceof ProjectionConflictError, valid: false, detail: `both fail to convert: ${String(err)}` };
    }
  }

  if (first) {
    return { ok: false, valid: true, detail: `hcl2json accepts but we report ${first.line}:${first.column} ${first.message}` };
  }
  let ours: unknown;
  try {
    ours = toJsonProjection(file);
  } catch (err) {
    return { ok: false, valid: true, detail: `our projection failed: ${String(err)}`, theirs };
  }
  const ok = isDeepStrictEqual(ours, theirs);
  return { ok, valid: true, detail: ok ? 'equal' : 'projections differ', ours, theirs };
}
