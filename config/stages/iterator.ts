// A task's `iterator` block: which dataset the task runs over and how. Parallel iteration runs one
// commander per item; sequential iteration (the default) gives one commander the items one at a time
// through dataset_next. The settings that only mean something in parallel are errors otherwise, as in
// the Go original, so a setting never silently does nothing.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { IteratorFailurePolicy, IteratorSpec } from '../graph.js';
import { resolveNameRef } from '../references.js';
import { decodeBody, type BlockSchema } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import { readBool, readEnum, readInteger } from '../values.js';

export const ITERATOR_DEFAULTS = { parallel: false, concurrencyLimit: 5, maxRetries: 0, startDelayMs: 0, smoketest: false, onFailure: 'continue' } as const;

const SCHEMA: BlockSchema = {
  attributes: { dataset: { required: true }, parallel: {}, concurrency_limit: {}, max_retries: {}, start_delay: {}, smoketest: {}, on_failure: {} },
};
/** Settings that only a parallel iterator has (Go's rule, plus on_failure). */
const PARALLEL_ONLY = ['concurrency_limit', 'start_delay', 'smoketest', 'on_failure'] as const;
const FAILURE_POLICIES: readonly IteratorFailurePolicy[] = ['continue', 'stop'];

export function loadIterator(block: Block, task: string, scope: Scope, ctx: LoadContext): IteratorSpec | undefined {
  const body = decodeBody(block.body, SCHEMA, { what: `iterator of task "${task}"`, header: block.typeRange }, ctx.diags);
  const a = (n: string) => body.attrs.get(n);
  const datasetAttr = a('dataset');
  const dataset = datasetAttr === undefined ? undefined : resolveNameRef(datasetAttr.expr, 'datasets', scope.datasets ?? new Map(), scope, ctx.diags);
  const parallel = readBool(a('parallel'), scope, ctx.diags) ?? ITERATOR_DEFAULTS.parallel;
  const spec: IteratorSpec = {
    dataset: dataset ?? '',
    parallel,
    concurrencyLimit: readInteger(a('concurrency_limit'), scope, ctx.diags, 1) ?? ITERATOR_DEFAULTS.concurrencyLimit,
    maxRetries: readInteger(a('max_retries'), scope, ctx.diags, 0) ?? ITERATOR_DEFAULTS.maxRetries,
    startDelayMs: readInteger(a('start_delay'), scope, ctx.diags, 0) ?? ITERATOR_DEFAULTS.startDelayMs,
    smoketest: readBool(a('smoketest'), scope, ctx.diags) ?? ITERATOR_DEFAULTS.smoketest,
    onFailure: readEnum(a('on_failure'), FAILURE_POLICIES, scope, ctx.diags) ?? ITERATOR_DEFAULTS.onFailure,
  };
  if (!parallel) {
    for (const name of PARALLEL_ONLY) {
      const attr = a(name);
      if (attr === undefined) continue;
      ctx.diags.push(
        diagnosticAt(attr.nameRange, 'error', 'ITR004', `${name} is only valid when parallel = true (task "${task}" iterates sequentially)`, `set parallel = true, or remove ${name}`),
      );
    }
    const retries = a('max_retries');
    if (retries !== undefined) {
      ctx.diags.push(
        diagnosticAt(
          retries.nameRange,
          'warning',
          'ITR008',
          `max_retries has no effect on a sequential iterator (task "${task}"): one commander walks all the items`,
          'set parallel = true to re-run failed items, or remove max_retries',
        ),
      );
    }
  }
  return dataset === undefined ? undefined : spec;
}
