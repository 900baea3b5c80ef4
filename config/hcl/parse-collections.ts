// Parsers for the bracketed expression forms: tuples `[…]`, objects `{…}`, `for` expressions and
// function calls `f(…)`. Newline handling follows HCL: ignored inside `[]`, `()` and `for`, but
// significant inside an object constructor, where a newline separates items like a comma.

import { endOffset, startOffset } from './positions.js';
import type { Expression, ForExpr, FunctionCallExpr, ObjectItem } from './ast.js';
import { CODES } from './codes.js';
import type { ParserState } from './peeker.js';
import { T, type Token } from './tokens.js';

type ParseExpression = (p: ParserState) => Expression;

export function parseTuple(p: ParserState, parseExpression: ParseExpression): Expression {
  const open = p.read();
  p.pushNewlines(false);
  try {
    if (p.isKeyword(p.peek(), 'for')) return parseForExpr(p, open, parseExpression);
    const items: Expression[] = [];
    let close: Token;
    for (;;) {
      if (p.peekType() === T.CBrack) {
        close = p.read();
        break;
      }
      const before = p.diagnostics.length;
      const item = parseExpression(p);
      items.push(item);
      if (p.recovery && p.diagnostics.length > before) {
        close = p.recover(T.CBrack);
        break;
      }
      const next = p.peek();
      if (p.ty(next) === T.CBrack) {
        close = p.read();
        break;
      }
      if (p.ty(next) !== T.Comma) {
        if (!p.recovery) {
          if (p.ty(next) === T.EOF) {
            p.errorAt(open, CODES.tupleSyntax, 'Unterminated tuple constructor expression: There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.', 'Add the missing "]".');
          } else {
            p.errorAt(next, CODES.tupleSyntax, 'Missing item separator: Expected a comma to mark the beginning of the next item.', 'Separate list items with commas.');
          }
        }
        close = p.recover(T.CBrack);
        break;
      }
      p.read();
    }
    return { kind: 'Tuple', items, range: p.range(p.st(open), p.en(close)) };
  } finally {
    p.popNewlines();
  }
}

export function parseObject(p: ParserState, parseExpression: ParseExpression): Expression {
  const open = p.read();
  // `for` expressions are not newline-sensitive, even though object constructors are.
  p.pushNewlines(false);
  const isFor = p.isKeyword(p.peek(), 'for');
  p.popNewlines();
  if (isFor) {
    p.pushNewlines(false);
    try {
      return parseForExpr(p, open, parseExpression);
    } finally {
      p.popNewlines();
    }
  }

  p.pushNewlines(true);
  const items: ObjectItem[] = [];
  let close: Token;
  try {
    for (;;) {
      const next = p.peek();
      if (p.ty(next) === T.Newline) {
        p.read();
        continue;
      }
      if (p.ty(next) === T.CBrace) {
        close = p.read();
        break;
      }
      const forceNonLiteral = p.ty(next) === T.OParen;
      const before = p.diagnostics.length;
      const key = parseExpression(p);
      if (p.recovery && p.diagnostics.length > before) {
        close = p.recover(T.CBrace);
        break;
      }
      const sep = p.peek();
      if (p.ty(sep) !== T.Equal && p.ty(sep) !== T.Colon) {
        if (!p.recovery) {
          switch (p.ty(sep)) {
            case T.Newline:
            case T.Comma:
              p.errorAt(sep, CODES.objectSyntax, 'Missing attribute value: Expected an attribute value, introduced by an equals sign ("=").', 'Write `key = value`.');
              break;
            case T.Ident:
              p.errorAt(sep, CODES.objectSyntax, 'Missing key/value separator: Expected an equals sign ("=") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.', 'Write `key = value`; quote keys that contain spaces or dots.');
              break;
            case T.EOF:
              p.errorAt(open, CODES.objectSyntax, 'Unterminated object constructor expression: There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.', 'Add the missing "}".');
              break;
            default:
              p.errorAt(sep, CODES.objectSyntax, 'Missing key/value separator: Expected an equals sign ("=") to mark the beginning of the attribute value.', 'Write `key = value`.');
          }
        }
        close = p.recover(T.CBrace);
        break;
      }
      p.read();
      const valueBefore = p.diagnostics.length;
      const value = parseExpression(p);
      const keyIsIdentifier = !forceNonLiteral && key.kind === 'ScopeTraversal' && key.steps.length === 0;
      items.push({ key, keyIsIdentifier, value, range: p.between(key.range, value.range) });
      if (p.recovery && p.diagnostics.length > valueBefore) {
        close = p.recover(T.CBrace);
        break;
      }
      const after = p.peek();
      if (p.ty(after) === T.CBrace) {
        close = p.read();
        break;
      }
      if (p.ty(after) !== T.Comma && p.ty(after) !== T.Newline) {
        if (!p.recovery) {
          if (p.ty(after) === T.EOF) {
            p.errorAt(open, CODES.objectSyntax, 'Unterminated object constructor expression: There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.', 'Add the missing "}".');
          } else {
            p.errorAt(after, CODES.objectSyntax, 'Missing attribute separator: Expected a newline or comma to mark the beginning of the next attribute.', 'Put each `key = value` on its own line or separate them with commas.');
          }
        }
        close = p.recover(T.CBrace);
        break;
      }
      p.read();
    }
  } finally {
    p.popNewlines();
  }
  return { kind: 'Object', items, range: p.range(p.st(open), p.en(close)) };
}

export function parseForExpr(p: ParserState, open: Token, parseExpression: ParseExpression): Expression {
  p.pushNewlines(false);
  try {
    p.read(); // `for`
    const isObject = p.ty(open) === T.OBrace;
    const closeType = isObject ? T.CBrace : T.CBrack;
    const fail = (tok: Token, detail: string): Expression => {
      if (!p.recovery) p.errorAt(tok, CODES.forSyntax, `Invalid 'for' expression: ${detail}`, isObject ? 'Write `{for k, v in coll : k => v}`.' : 'Write `[for v in coll : v]`.');
      const close = p.recover(closeType);
      return { kind: 'Literal', value: null, range: p.range(p.st(open), p.en(close)) };
    };
    if (p.peekType() !== T.Ident) return fail(p.peek(), "For expression requires variable name after 'for'.");
    let valueVar = p.text(p.read());
    let keyVar: string | undefined;
    if (p.peekType() === T.Comma) {
      p.read();
      keyVar = valueVar;
      if (p.peekType() !== T.Ident) return fail(p.peek(), 'For expression requires value variable name after comma.');
      valueVar = p.text(p.read());
    }
    if (!p.isKeyword(p.peek(), 'in')) return fail(p.peek(), "For expression requires the 'in' keyword after its name declarations.");
    p.read();
    let before = p.diagnostics.length;
    const collection = parseExpression(p);
    if (p.recovery && p.diagnostics.length > before) return fail(p.peek(), '');
    if (p.peekType() !== T.Colon) return fail(p.peek(), 'For expression requires a colon after the collection expression.');
    p.read();
    before = p.diagnostics.length;
    let keyExpr: Expression | undefined;
    let valueExpr = parseExpression(p);
    if (p.peekType() === T.FatArrow) {
      p.read();
      keyExpr = valueExpr;
      valueExpr = parseExpression(p);
    }
    if (p.recovery && p.diagnostics.length > before) return fail(p.peek(), '');
    let grouping = false;
    let ellipsis: Token | undefined;
    if (p.peekType() === T.Ellipsis) {
      ellipsis = p.read();
      grouping = true;
    }
    let condition: Expression | undefined;
    if (p.isKeyword(p.peek(), 'if')) {
      p.read();
      before = p.diagnostics.length;
      condition = parseExpression(p);
      if (p.recovery && p.diagnostics.length > before) return fail(p.peek(), '');
    }
    let close: Token;
    if (p.peekType() === closeType) close = p.read();
    else {
      if (!p.recovery) {
        p.errorAt(p.peek(), CODES.forSyntax, "Invalid 'for' expression: Extra characters after the end of the 'for' expression.", `End the expression with "${isObject ? '}' : ']'}".`);
      }
      close = p.recover(closeType);
    }
    if (!isObject) {
      if (keyExpr) p.error(startOffset(keyExpr.range), endOffset(keyExpr.range), CODES.forSyntax, "Invalid 'for' expression: Key expression is not valid when building a tuple.", 'Remove the `key =>` part, or build an object with {for …}.');
      if (ellipsis) p.errorAt(ellipsis, CODES.forSyntax, "Invalid 'for' expression: Grouping ellipsis (...) cannot be used when building a tuple.", 'Remove the "...", or build an object with {for …}.');
    } else if (!keyExpr) {
      p.error(startOffset(valueExpr.range), endOffset(valueExpr.range), CODES.forSyntax, "Invalid 'for' expression: Key expression is required when building an object.", 'Write `key => value`.');
    }
    const expr: ForExpr = { kind: 'For', valueVar, collection, valueExpr, grouping, isObject, range: p.range(p.st(open), p.en(close)) };
    if (keyVar !== undefined) expr.keyVar = keyVar;
    if (isObject && keyExpr) expr.keyExpr = keyExpr;
    if (condition) expr.condition = condition;
    return expr;
  } finally {
    p.popNewlines();
  }
}

export function parseFunctionCall(p: ParserState, name: Token, parseExpression: ParseExpression): Expression {
  let fullName = p.text(name);
  // Namespaced names (`provider::ns::fn`) are kept whole.
  while (p.peekType() === T.DoubleColon) {
    p.read();
    const part = p.peek();
    if (p.ty(part) !== T.Ident) {
      p.errorAt(part, CODES.callSyntax, 'Missing function name: Function scope resolution symbol :: must be followed by a function name in this scope.', 'Write `namespace::function(…)`.');
      p.setRecovery();
      return { kind: 'Literal', value: null, range: p.range(p.st(name), p.en(part)) };
    }
    p.read();
    fullName += '::' + p.text(part);
  }
  const openTok = p.read();
  if (p.ty(openTok) !== T.OParen) {
    p.errorAt(openTok, CODES.callSyntax, `Missing open parenthesis: Function selector must be followed by an open parenthesis to begin the function call.`, 'Write `name(arguments)`.');
    p.setRecovery();
    return { kind: 'Literal', value: null, range: p.range(p.st(name), p.en(openTok)) };
  }
  const args: Expression[] = [];
  let expandFinal = false;
  let closeEnd = p.en(openTok);
  p.pushNewlines(false);
  for (;;) {
    if (p.peekType() === T.CParen) {
      closeEnd = p.en(p.read());
      break;
    }
    const before = p.diagnostics.length;
    const arg = parseExpression(p);
    args.push(arg);
    if (p.recovery && p.diagnostics.length > before) {
      closeEnd = p.en(p.recover(T.CParen));
      break;
    }
    const sep = p.read();
    if (p.ty(sep) === T.CParen) {
      closeEnd = p.en(sep);
      break;
    }
    if (p.ty(sep) === T.Ellipsis) {
      expandFinal = true;
      if (p.peekType() !== T.CParen) {
        if (!p.recovery) p.errorAt(sep, CODES.callSyntax, 'Missing closing parenthesis: An expanded function argument (with ...) must be immediately followed by closing parentheses.', 'Only the last argument can be expanded with "...".');
        closeEnd = p.en(p.recover(T.CParen));
      } else closeEnd = p.en(p.read());
      break;
    }
    if (p.ty(sep) !== T.Comma) {
      if (p.ty(sep) === T.EOF) {
        p.error(p.st(name), p.en(openTok), CODES.callSyntax, 'Unterminated function call: There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parethesis nesting elsewhere in this file.', 'Add the missing ")".');
      } else {
        p.errorAt(sep, CODES.callSyntax, 'Missing argument separator: A comma is required to separate each function argument from the next.', 'Separate arguments with commas.');
      }
      closeEnd = p.en(p.recover(T.CParen));
      break;
    }
    if (p.peekType() === T.CParen) {
      closeEnd = p.en(p.read());
      break;
    }
  }
  p.popNewlines();
  const call: FunctionCallExpr = {
    kind: 'FunctionCall',
    name: fullName,
    nameRange: p.tokRange(name),
    args,
    expandFinal,
    range: p.range(p.st(name), closeEnd),
  };
  return call;
}
