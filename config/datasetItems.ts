// A dataset's items for one run: the written ones, or a bound list input's value checked against
// the dataset's schema (every bad item reported by index, before anything runs). `plan` shows the
// same count and problems a run would act on.

import { checkFieldValues } from './fieldValidation.js';
import type { DatasetSpec, FieldSchema } from './graph.js';
import type { Value } from './hcl/value.js';

/** Every problem of one item against the schema, paths as `item[3].id`. */
export function itemProblems(schema: readonly FieldSchema[], item: unknown, index: number): string[] {
  return checkFieldValues(schema, item, `item[${index}]`, 'schema field');
}

export interface DatasetItems {
  items: Value[];
  /** One line per bad item (its index and every problem); empty when all match. */
  problems: string[];
}

/**
 * A dataset's items for a run: written ones as they are, a bound input's value (a list, as the
 * input's conversion guarantees) checked against the schema. Every bad item is reported, by index.
 */
export function datasetItems(dataset: DatasetSpec, inputs: Readonly<Record<string, Value>>): DatasetItems {
  if (dataset.source.kind === 'items') return { items: dataset.source.items, problems: [] };
  // Filled while the run goes: its items are the run's (runtime/iteration/filledDatasets.ts), none before.
  if (dataset.source.kind === 'filled') return { items: [], problems: [] };
  const value = inputs[dataset.source.input];
  if (!Array.isArray(value)) {
    return { items: [], problems: [`dataset "${dataset.name}": input "${dataset.source.input}" is not a list`] };
  }
  const problems: string[] = [];
  if (dataset.schema !== undefined) {
    value.forEach((item, index) => {
      const bad = itemProblems(dataset.schema!, item, index);
      if (bad.length > 0) problems.push(`dataset "${dataset.name}" item ${index}: ${bad.join('; ')}`);
    });
  }
  return { items: value, problems };
}
