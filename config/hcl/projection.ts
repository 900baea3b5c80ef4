// The JSON projection of a parsed file, in exactly the shape `@cdktf/hcl2json` produces (it wraps
// tmccombs/hcl2json's converter). Used by the conformance tests to compare our AST with HashiCorp's
// parser. The rules, established by running hcl2json on many inputs:
//
//  - A body is an object: blocks first, then attributes by name. A block nests one object level
//    per label — `{type: {label1: {label2: [body]}}}` — and the innermost value is an array with
//    one entry per block of that type/labels, in source order. Empty blocks give `{}` entries.
//  - An attribute named like a block replaces the block's entry (attributes are assigned last).
//    Labelled and unlabelled blocks of one type (or different label counts) cannot be represented:
//    hcl2json fails, and we throw ProjectionConflictError.
//  - Literals (numbers, true/false/null) are JSON values; `-1` and `!true` (unary on a literal) are
//    folded (`-0` stays -0); `!1` or `-true` make hcl2json fail (ProjectionConflictError here);
//    tuples become arrays and object constructors objects, recursively.
//  - Quoted strings and heredocs become their processed text (backslash escapes decoded, `<<-`
//    indentation and `~` strip markers applied), except that literal `${`/`%{` text is written
//    escaped again as `$${`/`%%{`. Interpolations inside them are written back as `${<source>}`;
//    a literal inside an interpolation is inlined (`"a${1}"` → "a1", `${null}` → "null"); a
//    conditional inside an interpolation is written as `%{if c}a%{else}b%{endif}` like a directive;
//    %{if}/%{for} directives are re-rendered as `%{if <cond>}…%{else}…%{endif}` and
//    `%{for k, v in <coll>}…%{endfor}` (the else part only when it renders non-empty text).
//  - A string that is a single interpolation (`"${x}"`) projects as its inner expression would.
//  - Object keys: a plain name or a traversal key is its source text; a quoted key its text; any
//    other key is projected like a template part (`(k)` → "${(k)}", `1` → "1").
//  - Every other expression is `"${<exact source text>}"`; a `)` right after the expression is
//    included, a quirk of hcl2json's range handling.
//  - Comments vanish. Numbers are JSON numbers (1.50 → 1.5, 1e3 → 1000).

import { endOffset, startOffset } from './positions.js';
import type { Body, Expression, File, ObjectItem, TemplatePart } from './ast.js';
import { isPassthrough } from './eval-template.js';
import { getOwn, numberToString, setKey } from './convert.js';

export class ProjectionConflictError extends Error {}

type Json = null | string | number | boolean | Json[] | { [k: string]: Json };

function isJsonObject(v: Json | undefined): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function toJsonProjection(file: File): unknown {
  return new Projector(file.source).body(file.body);
}

class Projector {
  constructor(private readonly src: string) {}

  body(b: Body): { [k: string]: Json } {
    const out: { [k: string]: Json } = {};
    for (const block of b.blocks) {
      const value = this.body(block.body);
      let target = out;
      let key = block.type;
      for (const label of block.labels) {
        const inner = getOwn(target, key);
        if (inner !== undefined) {
          if (!isJsonObject(inner)) throw new ProjectionConflictError(`Unable to convert Block to JSON: ${[block.type, ...block.labels].join('.')}`);
          target = inner;
        } else {
          const obj: { [k: string]: Json } = {};
          setKey(target, key, obj);
          target = obj;
        }
        key = label;
      }
      const current = getOwn(target, key);
      if (current === undefined) setKey<Json>(target, key, [value]);
      else if (Array.isArray(current)) current.push(value);
      else throw new ProjectionConflictError(`Unable to convert Block to JSON: ${[block.type, ...block.labels].join('.')}`);
    }
    // Attributes are assigned after the blocks and replace a block of the same name.
    for (const a of b.attributes) setKey(out, a.name, this.expr(a.expr));
    return out;
  }

  source(e: Expression): string {
    let end = endOffset(e.range);
    if (this.src.charCodeAt(end) === 41) end++; // hcl2json's trailing ")" quirk
    return this.src.slice(startOffset(e.range), end);
  }

  wrap(e: Expression): string {
    return '${' + this.source(e) + '}';
  }

  expr(e: Expression): Json {
    switch (e.kind) {
      case 'Literal':
        return e.value;
      case 'Unary':
        if (e.operand.kind !== 'Literal') return this.wrap(e);
        return foldUnary(e.op, e.operand.value, this.source(e));
      case 'Template':
        if (isPassthrough(e)) {
          const only = e.parts[0]!;
          if (only.kind === 'TemplateInterpolation') return this.expr(only.expr);
        }
        return this.template(e.parts);
      case 'Tuple':
        return e.items.map((i) => this.expr(i));
      case 'Object': {
        const out: { [k: string]: Json } = {};
        for (const item of e.items) setKey(out, this.key(item), this.expr(item.value));
        return out;
      }
      default:
        return this.wrap(e);
    }
  }

  key(item: ObjectItem): string {
    const k = item.key;
    if (k.kind === 'ScopeTraversal') return this.source(k);
    return this.stringPart(k);
  }

  template(parts: TemplatePart[]): string {
    let s = '';
    for (const p of parts) s += this.part(p);
    return s;
  }

  part(p: TemplatePart): string {
    switch (p.kind) {
      case 'TemplateLiteral':
        return escapeTemplateText(p.value);
      case 'TemplateInterpolation':
        return this.stringPart(p.expr);
      case 'TemplateIf': {
        const t = this.template(p.then);
        const f = p.else ? this.template(p.else) : '';
        return `%{if ${this.source(p.condition)}}${t}${f.length > 0 ? `%{else}${f}` : ''}%{endif}`;
      }
      case 'TemplateFor': {
        const names = p.keyVar !== undefined ? `${p.keyVar}, ${p.valueVar}` : p.valueVar;
        return `%{for ${names} in ${this.source(p.collection)}}${this.template(p.body)}%{endfor}`;
      }
    }
  }

  /** An expression used inside a template (or as a non-name object key). */
  stringPart(e: Expression): string {
    switch (e.kind) {
      case 'Literal':
        return literalToString(e.value);
      case 'Template':
        if (isPassthrough(e)) {
          const only = e.parts[0]!;
          if (only.kind === 'TemplateInterpolation') return this.stringPart(only.expr);
        }
        return this.template(e.parts);
      case 'Conditional': {
        const t = this.stringPart(e.trueExpr);
        const f = this.stringPart(e.falseExpr);
        return `%{if ${this.source(e.condition)}}${t}${f.length > 0 ? `%{else}${f}` : ''}%{endif}`;
      }
      default:
        return this.wrap(e);
    }
  }
}

function foldUnary(op: '!' | '-', v: string | number | boolean | null, src: string): Json {
  if (op === '-' && typeof v === 'number') return -v; // -0 stays -0, as hcl2json prints it
  if (op === '!' && typeof v === 'boolean') return !v;
  throw new ProjectionConflictError(`hcl2json cannot fold the operator in "${src}"`);
}

function literalToString(v: string | number | boolean | null): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return numberToString(v);
  return String(v);
}

/** Literal text that reads as a sequence opener is written escaped again (`${` → `$${`). */
function escapeTemplateText(s: string): string {
  if (s.indexOf('{') < 0) return s;
  return s.split('${').join('$${').split('%{').join('%%{');
}
