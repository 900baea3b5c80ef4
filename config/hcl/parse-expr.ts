// Expression parser: conditional and binary operators by precedence climbing, then terms (literals,
// templates, variables, calls, tuples, objects, `for`), then traversal/index/splat suffixes.
// Follows hclsyntax's parser function by function so errors land where HashiCorp's do.

import type { BinaryOp, Expression, LiteralExpr, SplatExpr, TraversalStep } from './ast.js';
import { CODES } from './codes.js';
import { parseFunctionCall, parseObject, parseTuple } from './parse-collections.js';
import { parseTemplate } from './parse-template.js';
import type { ParserState } from './peeker.js';
import { endOffset, startOffset } from './positions.js';
import { T, type Token, type TokenType } from './tokens.js';

/** Binary operators by token type, and their precedence level (1 = lowest, 0 = not an operator). */
const BINARY_OPS: Partial<Record<TokenType, BinaryOp>> = {
  [T.Or]: '||',
  [T.And]: '&&',
  [T.EqualOp]: '==',
  [T.NotEqual]: '!=',
  [T.GreaterThan]: '>',
  [T.GreaterThanEq]: '>=',
  [T.LessThan]: '<',
  [T.LessThanEq]: '<=',
  [T.Plus]: '+',
  [T.Minus]: '-',
  [T.Star]: '*',
  [T.Slash]: '/',
  [T.Percent]: '%',
};
const PRECEDENCE = new Uint8Array(64);
[
  [T.Or],
  [T.And],
  [T.EqualOp, T.NotEqual],
  [T.GreaterThan, T.GreaterThanEq, T.LessThan, T.LessThanEq],
  [T.Plus, T.Minus],
  [T.Star, T.Slash, T.Percent],
].forEach((types, i) => {
  for (const t of types) PRECEDENCE[t] = i + 1;
});

const NUMBER_RE = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** One expression: a nesting level of its own (see ParserState.enter). */
export function parseExpression(p: ParserState): Expression {
  if (!p.enter()) return invalidExpr(p, p.peek());
  const e = parseConditional(p);
  p.leave();
  return e;
}

/** Stands where an expression failed to parse; see LiteralExpr.invalid. */
function invalidExpr(p: ParserState, tok: Token): LiteralExpr {
  return { kind: 'Literal', value: null, invalid: true, range: p.tokRange(tok) };
}

function parseConditional(p: ParserState): Expression {
  const before = p.diagnostics.length;
  const cond = parseBinary(p, 1);
  if (p.recovery && p.diagnostics.length > before) return cond;
  if (p.peekType() !== T.Question) return cond;
  p.read();
  const trueExpr = parseExpression(p);
  const colon = p.peek();
  if (p.ty(colon) !== T.Colon) {
    if (!p.recovery) {
      p.errorAt(colon, CODES.conditionalSyntax, 'Missing false expression in conditional: The conditional operator (...?...:...) requires a false expression, delimited by a colon.', 'Write `condition ? value_if_true : value_if_false`.');
    }
    return cond;
  }
  p.read();
  const falseExpr = parseExpression(p);
  return {
    kind: 'Conditional',
    condition: cond,
    trueExpr,
    falseExpr,
    range: p.between(cond.range, falseExpr.range),
  };
}

/**
 * Precedence climbing over left-associative operators. As in hclsyntax, an operand that failed
 * to parse while recovering ends the expression, so one mistake does not cascade.
 */
function parseBinary(p: ParserState, minLevel: number): Expression {
  let before = p.diagnostics.length;
  let left = parseExpressionWithTraversals(p);
  if (p.recovery && p.diagnostics.length > before) return left;
  for (;;) {
    const ty = p.peekType();
    const level = PRECEDENCE[ty]!;
    if (level === 0 || level < minLevel) return left;
    p.read();
    before = p.diagnostics.length;
    const right = parseBinary(p, level + 1);
    if (p.recovery && p.diagnostics.length > before) return left;
    left = { kind: 'Binary', op: BINARY_OPS[ty]!, left, right, range: p.between(left.range, right.range) };
  }
}

/** A term with its traversals; also the operand of unary minus and not (`-a.b` negates `a.b`). */
export function parseExpressionWithTraversals(p: ParserState): Expression {
  return parseTraversals(p, parseTerm(p));
}

function literal(p: ParserState, tok: Token, value: LiteralExpr['value']): LiteralExpr {
  return { kind: 'Literal', value, range: p.tokRange(tok) };
}

function numberLiteral(p: ParserState, tok: Token): LiteralExpr {
  const text = p.text(tok);
  if (!NUMBER_RE.test(text)) {
    p.errorAt(tok, CODES.invalidNumber, `Invalid number literal: Failed to recognize the value of this number literal.`, 'Write a decimal number such as 42, 2.5 or 1e3.');
    return literal(p, tok, 0);
  }
  return literal(p, tok, Number(text));
}

function parseTerm(p: ParserState): Expression {
  const start = p.peek();
  switch (p.ty(start)) {
    case T.OParen: {
      p.read();
      p.pushNewlines(false);
      const before = p.diagnostics.length;
      const inner = parseExpression(p);
      if (p.diagnostics.length > before) {
        const close = p.recover(T.CParen);
        p.popNewlines();
        return { kind: 'Parentheses', expr: inner, range: p.range(p.st(start), p.en(close)) };
      }
      const close = p.peek();
      if (p.ty(close) !== T.CParen) {
        p.errorAt(close, CODES.unbalancedParentheses, 'Unbalanced parentheses: Expected a closing parenthesis to terminate the expression.', 'Add the missing ")".');
        p.setRecovery();
      }
      const cParen = p.read();
      p.popNewlines();
      return { kind: 'Parentheses', expr: inner, range: p.range(p.st(start), p.en(cParen)) };
    }
    case T.Number:
      p.read();
      return numberLiteral(p, start);
    case T.Ident: {
      p.read();
      const next = p.peekType();
      if (next === T.OParen || next === T.DoubleColon) return parseFunctionCall(p, start, parseExpression);
      const name = p.text(start);
      if (name === 'true') return literal(p, start, true);
      if (name === 'false') return literal(p, start, false);
      if (name === 'null') return literal(p, start, null);
      const r = p.tokRange(start);
      return { kind: 'ScopeTraversal', root: name, rootRange: r, steps: [], range: r };
    }
    case T.OQuote:
    case T.OHeredoc: {
      p.read();
      const heredoc = p.ty(start) === T.OHeredoc;
      const tpl = parseTemplate(p, heredoc ? T.CHeredoc : T.CQuote, heredoc && p.src.charCodeAt(p.st(start) + 2) === 45, parseExpression);
      const range = p.range(p.st(start), p.en(p.prev()));
      if (heredoc) {
        const dash = p.src.charCodeAt(p.st(start) + 2) === 45;
        let markerEnd = p.en(start);
        while (p.src.charCodeAt(markerEnd - 1) === 10 || p.src.charCodeAt(markerEnd - 1) === 13) markerEnd--;
        const marker = p.src.slice(p.st(start) + (dash ? 3 : 2), markerEnd);
        return { kind: 'Template', parts: tpl.parts, heredoc: { marker, indented: dash }, range };
      }
      return { kind: 'Template', parts: tpl.parts, range };
    }
    case T.Minus:
    case T.Bang: {
      p.read();
      // `- - - … x` recurses once per operator without passing through parseExpression.
      if (!p.enter()) return invalidExpr(p, start);
      const operand = parseExpressionWithTraversals(p);
      p.leave();
      return {
        kind: 'Unary',
        op: p.ty(start) === T.Minus ? '-' : '!',
        operand,
        range: p.range(p.st(start), endOffset(operand.range)),
      };
    }
    case T.OBrack:
      return parseTuple(p, parseExpression);
    case T.OBrace:
      return parseObject(p, parseExpression);
    default:
      if (!p.recovery) {
        if (p.ty(start) === T.EOF) {
          p.errorAt(start, CODES.invalidExpression, 'Missing expression: Expected the start of an expression, but found the end of the file.', 'Write a value after the "=".');
        } else {
          const power = p.ty(start) === T.Star && p.src.charCodeAt(p.st(start) - 1) === 42;
          p.errorAt(
            start,
            CODES.invalidExpression,
            'Invalid expression: Expected the start of an expression, but found an invalid expression token.',
            power ? 'HCL has no "**" operator; multiply explicitly, e.g. x * x.' : 'Write a value here: a number, a "string", true/false, null, a [list], an {object} or a reference.',
          );
        }
      }
      p.setRecovery();
      // A placeholder keeps the AST structurally sound after the error.
      return invalidExpr(p, start);
  }
}

function appendStep(p: ParserState, ret: Expression, step: TraversalStep): Expression {
  if (ret.kind === 'ScopeTraversal' || ret.kind === 'RelativeTraversal') {
    ret.steps.push(step);
    ret.range = p.between(ret.range, step.range);
    return ret;
  }
  return { kind: 'RelativeTraversal', source: ret, steps: [step], range: p.between(ret.range, step.range) };
}

/** Whether appending a step to `e` wraps it in a new node (a plain traversal just grows). */
function wrapsOnStep(e: Expression): boolean {
  return e.kind !== 'ScopeTraversal' && e.kind !== 'RelativeTraversal';
}

/**
 * `.name`, `.0`, `[key]`, `[*]` and `.*` suffixes. Steps on a plain traversal stay flat, but an
 * index with a computed key, a splat, or a step after either wraps the result in a new node that
 * the evaluator recurses through: each wrap opens a nesting level, so `x[a][b][c]…` is bounded.
 */
export function parseTraversals(p: ParserState, from: Expression): Expression {
  let ret = from;
  let levels = 0;
  for (;;) {
    const next = p.peek();
    if (p.ty(next) === T.Dot) {
      const dot = p.read();
      const attr = p.peek();
      if (p.ty(attr) === T.Star || wrapsOnStep(ret)) {
        if (!p.enter()) break;
        levels++;
      }
      if (p.ty(attr) === T.Ident) {
        p.read();
        ret = appendStep(p, ret, { kind: 'GetAttr', name: p.text(attr), range: p.range(p.st(dot), p.en(attr)) });
        continue;
      }
      if (p.ty(attr) === T.Number) {
        p.read();
        ret = appendStep(p, ret, legacyIndex(p, dot, attr));
        continue;
      }
      if (p.ty(attr) === T.Star) {
        ret = parseAttrSplat(p, ret, dot);
        continue;
      }
      p.errorAt(attr, CODES.invalidAttributeName, 'Invalid attribute name: An attribute name is required after a dot.', 'Write a name after the ".", like `a.b`.');
      p.setRecovery();
      // As hclsyntax does, the traversal so far becomes a placeholder: `builtins.files.` is not
      // also reported as an incomplete reference.
      ret = { kind: 'Literal', value: null, invalid: true, range: p.range(startOffset(ret.range), p.en(dot)) };
      continue;
    }
    if (p.ty(next) === T.OBrack) {
      const open = p.read();
      if (p.peekType() === T.Star) {
        if (!p.enter()) break;
        levels++;
        p.read();
        let close = p.read();
        if (p.ty(close) !== T.CBrack && !p.recovery) {
          // hclsyntax reports this at the bracket (or end of file) where recovery stops.
          close = p.recover(T.CBrack);
          p.errorAt(close, CODES.missingCloseBracket, 'Missing close bracket on splat index: The star for a full splat operator must be immediately followed by a closing bracket ("]").', `Write \`[*]\` (the splat opened at ${openedAt(p, open)}).`);
        }
        // The rest of the traversal applies to each element: parse it against an anonymous
        // placeholder (a ScopeTraversal with an empty root name) standing for the element.
        const marker: Expression = { kind: 'ScopeTraversal', root: '', rootRange: p.range(p.st(open), p.en(close)), steps: [], range: p.range(p.st(open), p.en(close)) };
        const each = parseTraversals(p, marker);
        const splat: SplatExpr = { kind: 'Splat', source: ret, each: [], full: true, range: p.range(startOffset(from.range), Math.max(p.en(close), endOffset(each.range))) };
        if (each === marker && marker.kind === 'ScopeTraversal') splat.each = marker.steps;
        else splat.eachExpr = each;
        ret = splat;
        continue;
      }
      p.pushNewlines(false);
      const before = p.diagnostics.length;
      const key = parseExpression(p);
      let close: Token;
      if (p.recovery && p.diagnostics.length > before) {
        close = p.recover(T.CBrack);
      } else {
        close = p.read();
        if (p.ty(close) !== T.CBrack && !p.recovery) {
          close = p.recover(T.CBrack);
          p.errorAt(close, CODES.missingCloseBracket, 'Missing close bracket on index: The index operator must end with a closing bracket ("]").', `Add the "]" that closes the index opened at ${openedAt(p, open)}.`);
        }
      }
      p.popNewlines();
      const constant = constantKey(key);
      // Entered only now, so a key nested in a key (`a[b[c]]`) counts once, as the key's own
      // expression, not also as an index.
      if (constant === undefined || wrapsOnStep(ret)) {
        if (!p.enter()) break;
        levels++;
      }
      if (constant !== undefined) {
        ret = appendStep(p, ret, { kind: 'Index', key: constant, range: p.range(p.st(open), p.en(close)) });
      } else {
        ret = { kind: 'Index', collection: ret, key, range: p.range(startOffset(from.range), p.en(close)) };
      }
      continue;
    }
    break;
  }
  for (; levels > 0; levels--) p.leave();
  return ret;
}

function openedAt(p: ParserState, tok: Token): string {
  const pos = p.map.pos(p.st(tok));
  return `line ${pos.line}, column ${pos.column}`;
}

/** A literal or a plain quoted string used as an index is a static traversal step. */
function constantKey(key: Expression): LiteralExpr | undefined {
  if (key.kind === 'Literal') return key;
  if (key.kind === 'Template' && key.heredoc === undefined) {
    if (key.parts.length === 0) return { kind: 'Literal', value: '', range: key.range };
    const only = key.parts[0];
    if (key.parts.length === 1 && only !== undefined && only.kind === 'TemplateLiteral') {
      return { kind: 'Literal', value: only.value, range: key.range };
    }
  }
  return undefined;
}

function legacyIndex(p: ParserState, dotTok: Token, num: Token): TraversalStep {
  const text = p.text(num);
  if (text.includes('.')) {
    const dot = text.indexOf('.');
    const fix = `[${text.slice(0, dot)}][${text.slice(dot + 1)}]`;
    p.errorAt(num, CODES.invalidNumber, `Invalid legacy index syntax: When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like ${fix}.`, `Write ${fix} instead of .${text}.`);
  }
  return { kind: 'Index', key: numberLiteral(p, num), range: p.range(p.st(dotTok), p.en(num)) };
}

function parseAttrSplat(p: ParserState, source: Expression, dot: Token): Expression {
  const star = p.read();
  const each: TraversalStep[] = [];
  let lastEnd = p.en(star);
  while (p.peekType() === T.Dot) {
    const d = p.read();
    const t = p.peek();
    if (p.ty(t) === T.Number) {
      p.read();
      const step = legacyIndex(p, d, t);
      each.push(step);
      lastEnd = p.en(t);
      continue;
    }
    if (p.ty(t) !== T.Ident) {
      if (!p.recovery) {
        if (p.ty(t) === T.Star) {
          p.errorAt(t, CODES.invalidAttributeName, 'Nested splat expression not allowed: A splat expression (*) cannot be used inside another attribute-only splat expression.', 'Use the full splat form `[*]` for nested lists.');
        } else {
          p.errorAt(star, CODES.invalidAttributeName, 'Invalid attribute name: An attribute name is required after a dot.', 'Write a name after the ".".');
        }
      }
      p.setRecovery();
      break;
    }
    p.read();
    each.push({ kind: 'GetAttr', name: p.text(t), range: p.range(p.st(d), p.en(t)) });
    lastEnd = p.en(t);
  }
  return { kind: 'Splat', source, each, full: false, range: p.range(startOffset(source.range), lastEnd) };
}
