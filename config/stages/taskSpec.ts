// A task as the MissionGraph holds it. A large config has hundreds of thousands of tasks, so a task
// keeps the range of its block instead of what only a run reads: its objective's syntax tree (a
// template, its parts and their ranges, about 300 bytes a task) is parsed again from the source on
// each read, and its location is computed from the range. Validating never reads either.

import { rangeSource, reparseBlock, type Expression, type Range } from '../hcl/index.js';
import type { ApprovalRule, Budget, FieldSchema, Route, SourceLocation, TaskSpec, WorkerSpec } from '../graph.js';

/** What a task holds besides what it reads from its block. */
export type TaskFields = Omit<TaskSpec, 'objective' | 'objectiveSource' | 'location'>;

export class BlockBackedTask implements TaskSpec {
  // Declared here, so every task has one shape with room for each field (worker and output are
  // undefined when absent), rather than a shape per combination and an overflow array each.
  name!: string;
  mission!: string;
  dependsOn!: string[];
  agents!: string[];
  agentsVia!: TaskSpec['agentsVia'];
  worker?: WorkerSpec;
  router!: Route[];
  sendTo!: string[];
  output?: FieldSchema[];
  budget?: Budget;
  approval?: ApprovalRule[];
  direct?: true;
  /** The task block's whole range. Private: for…in (and so deepFreeze) does not reach it. */
  readonly #block: Range;

  constructor(block: Range, fields: TaskFields) {
    this.#block = block;
    Object.assign(this, fields);
  }

  /** The objective template, parsed anew on each read: keep what you need from it. */
  get objective(): Expression {
    return this.#objective()?.expr ?? { kind: 'Literal', value: '', range: this.#block };
  }

  /** Source text of the objective, for display. */
  get objectiveSource(): string {
    const attr = this.#objective();
    return attr === undefined ? '' : rangeSource(attr.expr.range);
  }

  get location(): SourceLocation {
    const start = this.#block.start;
    return { file: this.#block.file, line: start.line, column: start.column };
  }

  #objective() {
    return reparseBlock(this.#block).body.attributes.find((a) => a.name === 'objective');
  }
}
