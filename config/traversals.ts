// The free variable references of an expression: every `root.step…` it reads that is not a local
// of an enclosing `for` (expression or template directive) or the element of an enclosing splat.
// Object keys written as bare names are keys, not references.

import type { Expression, ScopeTraversalExpr, TemplatePart, TraversalStep } from './hcl/ast.js';

/** The root name the parser gives the per-element placeholder inside `SplatExpr.eachExpr`. */
const SPLAT_ELEMENT = '';

/** Every variable reference in an expression that is not bound by an enclosing `for` or splat. */
export function freeTraversals(expr: Expression): ScopeTraversalExpr[] {
  const out: ScopeTraversalExpr[] = [];
  walkExpr(expr, new Set(), out);
  return out;
}

function walkSteps(steps: readonly TraversalStep[], bound: ReadonlySet<string>, out: ScopeTraversalExpr[]): void {
  for (const s of steps) if (s.kind === 'Index') walkExpr(s.key, bound, out);
}

function walkParts(parts: readonly TemplatePart[], bound: ReadonlySet<string>, out: ScopeTraversalExpr[]): void {
  for (const p of parts) {
    switch (p.kind) {
      case 'TemplateLiteral':
        break;
      case 'TemplateInterpolation':
        walkExpr(p.expr, bound, out);
        break;
      case 'TemplateIf':
        walkExpr(p.condition, bound, out);
        walkParts(p.then, bound, out);
        if (p.else) walkParts(p.else, bound, out);
        break;
      case 'TemplateFor': {
        walkExpr(p.collection, bound, out);
        const inner = new Set(bound);
        inner.add(p.valueVar);
        if (p.keyVar !== undefined) inner.add(p.keyVar);
        walkParts(p.body, inner, out);
        break;
      }
    }
  }
}

function walkExpr(e: Expression, bound: ReadonlySet<string>, out: ScopeTraversalExpr[]): void {
  switch (e.kind) {
    case 'Literal':
      return;
    case 'Template':
      return walkParts(e.parts, bound, out);
    case 'ScopeTraversal':
      if (!bound.has(e.root)) out.push(e);
      return walkSteps(e.steps, bound, out);
    case 'RelativeTraversal':
      walkExpr(e.source, bound, out);
      return walkSteps(e.steps, bound, out);
    case 'FunctionCall':
      for (const a of e.args) walkExpr(a, bound, out);
      return;
    case 'Tuple':
      for (const i of e.items) walkExpr(i, bound, out);
      return;
    case 'Object':
      for (const item of e.items) {
        if (!item.keyIsIdentifier) walkExpr(item.key, bound, out);
        walkExpr(item.value, bound, out);
      }
      return;
    case 'Unary':
      return walkExpr(e.operand, bound, out);
    case 'Binary': {
      // A chain `a + b + c …` is a left-leaning tree as deep as it is long: loop down its left
      // spine instead of recursing, then visit the right operands left to right.
      const rights: Expression[] = [];
      let left: Expression = e;
      while (left.kind === 'Binary') {
        rights.push(left.right);
        left = left.left;
      }
      walkExpr(left, bound, out);
      for (let i = rights.length - 1; i >= 0; i--) walkExpr(rights[i]!, bound, out);
      return;
    }
    case 'Conditional':
      walkExpr(e.condition, bound, out);
      walkExpr(e.trueExpr, bound, out);
      return walkExpr(e.falseExpr, bound, out);
    case 'For': {
      walkExpr(e.collection, bound, out);
      const inner = new Set(bound);
      inner.add(e.valueVar);
      if (e.keyVar !== undefined) inner.add(e.keyVar);
      if (e.keyExpr) walkExpr(e.keyExpr, inner, out);
      walkExpr(e.valueExpr, inner, out);
      if (e.condition) walkExpr(e.condition, inner, out);
      return;
    }
    case 'Splat': {
      walkExpr(e.source, bound, out);
      walkSteps(e.each, bound, out);
      if (e.eachExpr === undefined) return;
      // A nested splat or dynamic index per element: the element itself is the placeholder root
      // `''`, bound like a `for` variable; anything else it reads is a real reference.
      const inner = new Set(bound);
      inner.add(SPLAT_ELEMENT);
      return walkExpr(e.eachExpr, inner, out);
    }
    case 'Index':
      walkExpr(e.collection, bound, out);
      return walkExpr(e.key, bound, out);
    case 'Parentheses':
      return walkExpr(e.expr, bound, out);
  }
}
