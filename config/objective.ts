// Rendering a task objective at run time: the template checked at load is evaluated with the
// mission's input values and the variables (and, for a parallel iterator, one item), nothing else
// (no file access, no other namespaces).

import type { Diagnostic } from './hcl/diagnostic.js';
import { evaluate } from './hcl/evaluate.js';
import { stdlibFunctions } from './hcl/stdlib.js';
import { isUnknown, type HclFunction, type ObjectValue, type Value } from './hcl/value.js';
import type { TaskSpec, VariableValue } from './graph.js';

export interface RenderedObjective {
  /** The objective text, when it could be rendered. */
  text?: string;
  diagnostics: Diagnostic[];
}

/** One item of a parallel iterator: what `item` and `item_index` read in the objective. */
export interface ObjectiveItem {
  value: Value;
  index: number;
}

export function renderObjective(task: TaskSpec, variables: readonly VariableValue[], inputs: Readonly<Record<string, Value>>, item?: ObjectiveItem): RenderedObjective {
  const vars: ObjectValue = {};
  for (const v of variables) if (v.value !== undefined) vars[v.name] = v.value;
  const scope: Record<string, Value> = { vars, inputs: { ...inputs } };
  if (item !== undefined) Object.assign(scope, { item: item.value, item_index: item.index });
  const result = evaluate(task.objective, {
    variables: scope,
    functions: stdlibFunctions as Readonly<Record<string, HclFunction>> as Record<string, HclFunction>,
  });
  if (result.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: result.diagnostics };
  const v = result.value;
  if (typeof v === 'string') return { text: v, diagnostics: result.diagnostics };
  if (typeof v === 'number' || typeof v === 'boolean') return { text: String(v), diagnostics: result.diagnostics };
  const what = v === null ? 'null' : isUnknown(v) ? 'an unknown value (a missing input?)' : 'a list or object';
  return {
    diagnostics: [
      ...result.diagnostics,
      {
        severity: 'error',
        code: 'SCH007',
        message: `the objective of task "${task.name}" rendered to ${what}, not text`,
        file: task.location.file,
        line: task.objective.range.start.line,
        column: task.objective.range.start.column,
        endLine: task.objective.range.end.line,
        endColumn: task.objective.range.end.column,
      },
    ],
  };
}
