// Strict block decoding: every block type declares its attributes, nested blocks and label count;
// anything else is an error at its exact position, with a "did you mean" hint. Decoding never stops
// at the first problem: it reports them all and returns what it could make sense of.

import type { Attribute, Block, Body } from './hcl/ast.js';
import type { SourceLocation } from './graph.js';
import { diagnosticAt, type Diagnostic, type Range } from './hcl/diagnostic.js';
import { SourceRange } from './hcl/index.js';
import { suggestionHint } from './suggest.js';
import { goNameHint } from './goNames.js';

export interface AttributeSpec {
  required?: boolean;
}

export interface NestedBlockSpec {
  /** Label names, for messages (`field "name"` has ["name"]). */
  labels: readonly string[];
  min?: number;
  max?: number;
}

export interface BlockSchema {
  attributes: Readonly<Record<string, AttributeSpec>>;
  blocks?: Readonly<Record<string, NestedBlockSpec>>;
  /** Further attribute names accepted (a custom tool's fields, known only from `implements`). */
  extraAttributes?: readonly string[];
}

export interface DecodedBody {
  attrs: Map<string, Attribute>;
  /** Nested blocks by type, in source order; blocks with a wrong label count are left out. */
  blocks: Map<string, Block[]>;
}

/** What the decoded body belongs to: named in messages, its header is where "missing" errors point. */
export interface BodyOwner {
  /** e.g. `model "main"`, `mission "m" commander`. */
  what: string;
  header: Range;
}

export const BLOCK_NAME = /^[a-z_][a-z0-9_]*$/;

/** From the block's type keyword to its last label: where errors about the whole block point. */
export function blockHeader(block: Block): Range {
  const last = block.labelRanges[block.labelRanges.length - 1];
  const type = block.typeRange;
  if (type instanceof SourceRange) return type.to(last ?? type); // without computing positions now
  return { file: type.file, start: type.start, end: (last ?? type).end };
}

/** Where a block starts, as the graph records it (`location` of a model, tool, agent, task …). */
export function locationOf(block: Block): SourceLocation {
  return { file: block.range.file, line: block.range.start.line, column: block.range.start.column };
}

interface SchemaIndex {
  attrNames: string[];
  known: Set<string>;
  required: string[];
  blockTypes: string[];
}

// Schemas are static objects used for every block of their kind: index each once.
const indexes = new WeakMap<BlockSchema, SchemaIndex>();

function indexOf(schema: BlockSchema): SchemaIndex {
  let index = indexes.get(schema);
  if (index === undefined) {
    const attrNames = [...Object.keys(schema.attributes), ...(schema.extraAttributes ?? [])];
    index = {
      attrNames,
      known: new Set(attrNames),
      required: Object.entries(schema.attributes)
        .filter(([, spec]) => spec.required === true)
        .map(([name]) => name),
      blockTypes: Object.keys(schema.blocks ?? {}),
    };
    indexes.set(schema, index);
  }
  return index;
}

export function decodeBody(body: Body, schema: BlockSchema, owner: BodyOwner, diags: Diagnostic[]): DecodedBody {
  const attrs = new Map<string, Attribute>();
  const blocks = new Map<string, Block[]>();
  const blockSpecs = schema.blocks ?? {};
  const { attrNames, known, required, blockTypes } = indexOf(schema);

  for (const attr of body.attributes) {
    if (!known.has(attr.name)) {
      const hint =
        attr.name in blockSpecs
          ? `${attr.name} is a block here: write ${attr.name} { … }`
          : (goNameHint(attr.name) ?? suggestionHint(attr.name, attrNames));
      diags.push(diagnosticAt(attr.nameRange, 'error', 'SCH001', `unknown attribute "${attr.name}" in ${owner.what}`, hint));
      continue;
    }
    // A repeated attribute is a syntax error (SYN009) and the parser keeps only the first.
    attrs.set(attr.name, attr);
  }

  for (const block of body.blocks) {
    const spec = blockSpecs[block.type];
    if (spec === undefined) {
      const hint = known.has(block.type)
        ? `${block.type} is an attribute here: write ${block.type} = …`
        : (goNameHint(block.type) ?? suggestionHint(block.type, blockTypes));
      diags.push(diagnosticAt(block.typeRange, 'error', 'SCH002', `unknown block "${block.type}" in ${owner.what}`, hint));
      continue;
    }
    if (!checkLabels(block, spec.labels, diags)) continue;
    const list = blocks.get(block.type) ?? [];
    list.push(block);
    blocks.set(block.type, list);
  }

  for (const name of required) {
    if (!attrs.has(name)) {
      diags.push(diagnosticAt(owner.header, 'error', 'SCH003', `${owner.what} is missing the required attribute "${name}"`));
    }
  }
  for (const type of blockTypes) {
    const spec = blockSpecs[type]!;
    const found = blocks.get(type) ?? [];
    if (spec.min !== undefined && found.length < spec.min) {
      const labels = spec.labels.map((l) => ` "<${l}>"`).join('');
      diags.push(diagnosticAt(owner.header, 'error', 'SCH004', `${owner.what} needs ${spec.min === 1 ? 'a' : `at least ${spec.min}`} ${type}${labels} block`));
    }
    if (spec.max !== undefined && found.length > spec.max) {
      for (const extra of found.slice(spec.max)) {
        diags.push(
          diagnosticAt(
            blockHeader(extra),
            'error',
            'SCH005',
            `${owner.what} may have at most ${spec.max === 1 ? 'one' : spec.max} ${type} block${spec.max === 1 ? '' : 's'}`,
            `another one starts on line ${found[0]!.typeRange.start.line}`,
          ),
        );
      }
      blocks.set(type, found.slice(0, spec.max));
    }
  }
  return { attrs, blocks };
}

/** Reports a wrong label count; true when the block is usable. */
export function checkLabels(block: Block, labels: readonly string[], diags: Diagnostic[]): boolean {
  if (block.labels.length === labels.length) return true;
  const form = [block.type, ...labels.map((l) => `"<${l}>"`)].join(' ');
  if (block.labels.length < labels.length) {
    diags.push(diagnosticAt(block.typeRange, 'error', 'SCH006', `${block.type} block needs ${labels.length === 1 ? 'a name' : `${labels.length} labels`}`, `write ${form} { … }`));
  } else {
    const extra = block.labelRanges[labels.length]!;
    diags.push(diagnosticAt(extra, 'error', 'SCH006', `${block.type} block has too many labels`, `write ${form} { … }`));
  }
  return false;
}

/** Checks a block's name against the naming rule; reports at the label. */
export function checkBlockName(block: Block, diags: Diagnostic[]): boolean {
  const name = block.labels[0];
  const range = block.labelRanges[0];
  if (name === undefined || range === undefined) return false;
  if (BLOCK_NAME.test(name)) return true;
  const fixed = name.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^([0-9])/, '_$1');
  diags.push(
    diagnosticAt(
      range,
      'error',
      'SCH009',
      `${block.type} name "${name}" is invalid: use lowercase letters, digits and underscores, not starting with a digit`,
      fixed !== name && BLOCK_NAME.test(fixed) ? `for example "${fixed}"` : undefined,
    ),
  );
  return false;
}

/** A name seen once per namespace; a second declaration is an error pointing at both places. */
export class NameRegistry {
  private readonly seen = new Map<string, SourceLocation>();
  /**
   * `reserved` looks up names declared elsewhere that may not be declared here (the global agents a
   * mission's own agent may not shadow). A lookup, not a copy: copying every global agent into each
   * mission's registry made loading quadratic in missions × agents.
   */
  constructor(
    private readonly kind: string,
    private readonly reserved?: (name: string) => SourceLocation | undefined,
  ) {}

  /** True when `name` is new; otherwise reports SCH008 at `range` naming the first declaration. */
  claim(name: string, range: Range, diags: Diagnostic[]): boolean {
    const first = this.seen.get(name) ?? this.reserved?.(name);
    if (first === undefined) {
      this.seen.set(name, { file: range.file, line: range.start.line, column: range.start.column });
      return true;
    }
    const d = diagnosticAt(range, 'error', 'SCH008', `${this.kind} "${name}" is declared twice`, 'rename one of them or remove the duplicate');
    d.related = { label: 'first at', ...first };
    diags.push(d);
    return false;
  }

  has(name: string): boolean {
    return this.seen.has(name) || this.reserved?.(name) !== undefined;
  }
}
