// Parses a whole HCL file: bodies, attributes and blocks (including one-line blocks), on top of the
// expression parser. Always returns a body; syntax errors become diagnostics, and the parser
// resynchronises at the next line so one file can report several independent mistakes.

import type { Attribute, Block, Body, File } from './ast.js';
import { diagnosticAt, relatedAt, type Diagnostic, type Range } from './diagnostic.js';
import { CODES } from './codes.js';
import { lex } from './lexer.js';
import { parseExpression } from './parse-expr.js';
import { ParserState } from './peeker.js';
import { endOffset, SourceMap } from './positions.js';
import { decodeLiteral } from './string-literal.js';
import { T, type Token, type TokenType } from './tokens.js';

export interface ParseResult {
  file: File;
  diagnostics: Diagnostic[];
}

/** What becomes of each top-level block once parsed (deferredBlock.ts swaps it for a light stand-in). */
export type TopLevelBlockHook = (block: Block, map: SourceMap) => Block;

export function parseHcl(source: string, fileName: string, topLevelBlock?: TopLevelBlockHook): ParseResult {
  const map = new SourceMap(fileName, source);
  try {
    const { tokens, diagnostics: lexDiags } = lex(map);
    const p = new ParserState(tokens, map);
    const body = parseBody(p, T.EOF, 0, topLevelBlock);
    body.range = map.range(0, source.length);
    // Lexer errors come first, as in hclsyntax: its first reported error is a lexical one if any.
    return { file: { name: fileName, source, body }, diagnostics: [...lexDiags, ...p.diagnostics] };
  } catch (err) {
    // Nesting is bounded (MAX_NESTING), so this is a safety net for a smaller stack than ours:
    // the file is reported as one error instead of crashing whoever parses it.
    if (!(err instanceof RangeError)) throw err;
    const whole = map.range(0, source.length);
    const body: Body = { kind: 'Body', attributes: [], blocks: [], range: whole };
    const diagnostic = diagnosticAt(
      map.range(0, Math.min(1, source.length)),
      'error',
      CODES.nestingTooDeep,
      `Nested too deeply: This file could not be parsed (${err.message}).`,
      'Flatten deeply nested expressions or blocks.',
    );
    return { file: { name: fileName, source, body }, diagnostics: [diagnostic] };
  }
}

/**
 * The top-level block of `map.source` whose type keyword starts at `from` and whose closing brace
 * ends at `to`, parsed again on its own. Only for a file that parsed without any diagnostic, where
 * the lexer and the parser are in their initial state at each top-level item.
 */
export function parseBlockAt(map: SourceMap, from: number, to: number): Block | undefined {
  const p = new ParserState(lex(map, from, to).tokens, map);
  const item = parseBodyItem(p);
  return item?.kind === 'Block' ? item : undefined;
}

/**
 * The top-level items of [from, to) of `map.source`, lexed and parsed on their own, with the
 * diagnostics of both. Only meaningful where the lexer and the parser are in their initial state
 * at `from` and `to` (between two top-level items of a file); throws RangeError when nested too
 * deeply for the stack, as parseHcl would report.
 */
export function parseTopLevelItems(map: SourceMap, from: number, to: number, topLevelBlock: TopLevelBlockHook): { body: Body; diagnostics: Diagnostic[] } {
  const { tokens, diagnostics } = lex(map, from, to);
  const p = new ParserState(tokens, map);
  const body = parseBody(p, T.EOF, from, topLevelBlock);
  return { body, diagnostics: [...diagnostics, ...p.diagnostics] };
}

function parseBody(p: ParserState, end: TokenType, startOffset: number, topLevelBlock?: TopLevelBlockHook): Body {
  const attributes: Attribute[] = [];
  const blocks: Block[] = [];
  const seen = new Map<string, Attribute>();
  let endOffset = startOffset;
  for (;;) {
    const next = p.peek();
    if (p.ty(next) === end) {
      endOffset = p.en(next);
      p.read();
      break;
    }
    if (p.ty(next) === T.Newline) {
      p.read();
      continue;
    }
    if (p.ty(next) === T.Ident) {
      // Each body item starts afresh: report its own first error even after an earlier one.
      p.recovery = false;
      const item = parseBodyItem(p);
      if (item === undefined) continue;
      if (item.kind === 'Block') {
        blocks.push(topLevelBlock === undefined ? item : topLevelBlock(item, p.map));
        continue;
      }
      const existing = seen.get(item.name);
      if (existing) {
        const d = diagnosticAt(item.nameRange, 'error', CODES.attributeRedefined, `Attribute redefined: The argument "${item.name}" may be set only once`, `Remove one of the two "${item.name}" definitions.`);
        d.related = relatedAt('first set at', existing.nameRange);
        p.diagnostics.push(d);
      } else {
        seen.set(item.name, item);
        attributes.push(item);
      }
      continue;
    }
    const bad = p.read();
    if (!p.recovery) {
      if (p.ty(bad) === T.OQuote) {
        p.errorAt(bad, CODES.quotedArgumentName, 'Invalid argument name: Argument names must not be quoted.', 'Remove the quotes around the name.');
      } else if (p.ty(bad) === T.EOF) {
        // Reported at the block's opening brace, which is what the user needs to find.
        p.error(startOffset, startOffset + 1, CODES.unclosedBlock, 'Unclosed configuration block: There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.', 'Add the missing "}" for the block opened here.');
      } else {
        p.errorAt(bad, CODES.bodyItemRequired, 'Argument or block definition required: An argument or block definition is required here.', 'Write `name = value` or `type "label" { … }`.');
      }
    }
    endOffset = p.en(bad);
    p.recover(end);
    break;
  }
  return { kind: 'Body', attributes, blocks, range: p.range(startOffset, endOffset) };
}

function parseBodyItem(p: ParserState): Attribute | Block | undefined {
  const ident = p.read();
  const next = p.peekType();
  if (next === T.Equal) return finishAttribute(p, ident, false);
  if (next === T.OQuote || next === T.OBrace || next === T.Ident) return finishBlock(p, ident);
  p.recoverAfterBodyItem();
  p.errorAt(ident, CODES.bodyItemRequired, 'Argument or block definition required: An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.', `Write \`${p.text(ident)} = value\` or \`${p.text(ident)} { … }\`.`);
  return undefined;
}

function finishAttribute(p: ParserState, ident: Token, singleLine: boolean): Attribute {
  p.read(); // `=`
  const before = p.diagnostics.length;
  const expr = parseExpression(p);
  const nameRange = p.tokRange(ident);
  const attr: Attribute = {
    kind: 'Attribute',
    name: p.text(ident),
    nameRange,
    expr,
    range: p.between(nameRange, expr.range),
  };
  if (p.diagnostics.length > before) {
    // The syntax error is the whole story: the value becomes a placeholder (unknown to the
    // evaluator, skipped by the loader), so a half-parsed expression is not reported again.
    attr.expr = { kind: 'Literal', value: null, invalid: true, range: expr.range };
  }
  if (p.recovery && p.diagnostics.length > before) {
    p.recoverAfterBodyItem();
    return attr;
  }
  if (singleLine) return attr;
  const end = p.peek();
  if (p.ty(end) !== T.Newline && p.ty(end) !== T.EOF) {
    if (!p.recovery) {
      if (p.ty(end) === T.Comma) {
        p.errorAt(end, CODES.missingNewlineAfterAttribute, 'Unexpected comma after argument: Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.', 'Put each argument on its own line, without commas.');
      } else {
        p.errorAt(end, CODES.missingNewlineAfterAttribute, 'Missing newline after argument: An argument definition must end with a newline.', 'Start a new line after the value.');
      }
    }
    p.recoverAfterBodyItem();
  } else {
    p.read();
  }
  return attr;
}

function finishBlock(p: ParserState, ident: Token): Block | undefined {
  const labels: string[] = [];
  const labelRanges: Range[] = [];
  let oBrace: Token;
  for (;;) {
    const tok = p.peek();
    if (p.ty(tok) === T.OBrace) {
      oBrace = p.read();
      break;
    }
    if (p.ty(tok) === T.OQuote) {
      const { value, start, end } = parseQuotedLabel(p);
      labels.push(value);
      labelRanges.push(p.range(start, end));
      continue;
    }
    if (p.ty(tok) === T.Ident) {
      p.read();
      labels.push(p.text(tok));
      labelRanges.push(p.tokRange(tok));
      continue;
    }
    if (p.ty(tok) === T.Equal) {
      p.errorAt(tok, CODES.invalidBlockDefinition, 'Invalid block definition: The equals sign "=" indicates an argument definition, and must not be used when defining a block.', labels.length > 0 ? 'Remove the "=" between the block labels and "{".' : `Write \`${p.text(ident)} { … }\` for a block or \`${p.text(ident)} = value\` for an argument.`);
    } else if (p.ty(tok) === T.Newline) {
      p.errorAt(tok, CODES.invalidBlockDefinition, 'Invalid block definition: A block definition must have block content delimited by "{" and "}", starting on the same line as the block header.', 'Put the opening "{" on the same line as the block type and labels.');
    } else if (!p.recovery) {
      p.errorAt(tok, CODES.invalidBlockDefinition, 'Invalid block definition: Either a quoted string block label or an opening brace ("{") is expected here.', 'Block labels are quoted strings; the body starts with "{".');
    }
    p.recoverAfterBodyItem();
    return undefined;
  }

  let body: Body;
  const first = p.peekType();
  if (first === T.Newline || first === T.EOF || first === T.CBrace) {
    // Blocks nest by recursion: bounded like expressions. One too deep is skipped whole.
    if (p.enter({ start: p.st(oBrace), end: p.en(oBrace) })) {
      body = parseBody(p, T.CBrace, p.st(oBrace));
      p.leave();
    } else {
      const close = p.recover(T.CBrace);
      body = { kind: 'Body', attributes: [], blocks: [], range: p.range(p.st(oBrace), p.en(close)) };
    }
  } else {
    // As in hclsyntax, errors about how the one-line block ends are listed before errors from
    // inside its single argument.
    const before = p.diagnostics.length;
    body = parseSingleAttrBody(p, oBrace);
    const inner = p.diagnostics.splice(before);
    const after = p.peek();
    if (p.ty(after) === T.CBrace) {
      p.read();
    } else {
      if (p.ty(after) === T.Comma) {
        p.errorAt(after, CODES.invalidSingleArgumentBlock, 'Invalid single-argument block definition: Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.', 'Put each argument on its own line inside the block.');
      } else if (p.ty(after) === T.Newline) {
        p.errorAt(after, CODES.invalidSingleArgumentBlock, "Invalid single-argument block definition: An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.", 'Close the block with "}" on the same line, or start its body on a new line after "{".');
      } else if (!p.recovery) {
        p.errorAt(after, CODES.invalidSingleArgumentBlock, 'Invalid single-argument block definition: A single-line block definition must end with a closing brace immediately after its single argument definition.', 'Put each argument on its own line inside the block.');
      }
      p.recover(T.CBrace);
    }
    p.diagnostics.push(...inner);
    body.range = p.range(p.st(oBrace), p.en(p.prev()));
  }
  const cBrace = p.prev();
  const eol = p.peek();
  if (p.ty(eol) === T.Newline || p.ty(eol) === T.EOF) {
    p.read();
  } else {
    if (!p.recovery) {
      p.errorAt(eol, CODES.missingNewlineAfterBlock, 'Missing newline after block definition: A block definition must end with a newline.', 'Start a new line after the closing "}".');
    }
    p.recoverAfterBodyItem();
  }
  const typeRange = p.tokRange(ident);
  const closeBraceRange = p.tokRange(cBrace);
  return {
    kind: 'Block',
    type: p.text(ident),
    typeRange,
    labels,
    labelRanges,
    body,
    openBraceRange: p.tokRange(oBrace),
    closeBraceRange,
    range: p.between(typeRange, closeBraceRange),
  };
}

function parseSingleAttrBody(p: ParserState, oBrace: Token): Body {
  const empty = (): Body => ({ kind: 'Body', attributes: [], blocks: [], range: p.range(p.st(oBrace), p.en(oBrace)) });
  const ident = p.read();
  if (p.ty(ident) !== T.Ident) {
    p.recoverAfterBodyItem();
    p.errorAt(ident, CODES.bodyItemRequired, 'Argument or block definition required: An argument or block definition is required here. To define a block, put its opening brace on its own line.', 'Write `name = value` inside the braces, or start the block body on a new line.');
    return empty();
  }
  const next = p.peek();
  if (p.ty(next) === T.Equal) {
    const attr = finishAttribute(p, ident, true);
    return { kind: 'Body', attributes: [attr], blocks: [], range: p.range(p.st(oBrace), endOffset(attr.range)) };
  }
  p.recoverAfterBodyItem();
  if (p.ty(next) === T.OQuote || p.ty(next) === T.OBrace || p.ty(next) === T.Ident) {
    p.error(p.st(ident), p.en(next), CODES.singleLineBlockArgumentRequired, `Argument definition required: A single-line block definition can contain only a single argument. If you meant to define argument "${p.text(ident)}", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.`, 'Move the nested block onto its own line.');
  } else {
    p.errorAt(ident, CODES.bodyItemRequired, 'Argument or block definition required: An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.', `Write \`${p.text(ident)} = value\`.`);
  }
  return empty();
}

function parseQuotedLabel(p: ParserState): { value: string; start: number; end: number } {
  const open = p.read();
  let value = '';
  let end = p.en(open);
  for (;;) {
    const tok = p.read();
    if (p.ty(tok) === T.CQuote) {
      end = p.en(tok);
      break;
    }
    if (p.ty(tok) === T.QuotedLit) {
      value += decodeLiteral(p, p.st(tok), p.en(tok), true);
      continue;
    }
    if (p.ty(tok) === T.TemplateInterp || p.ty(tok) === T.TemplateControl) {
      const which = p.ty(tok) === T.TemplateInterp ? '$' : '%';
      p.errorAt(tok, CODES.invalidLabel, `Invalid string literal: Template sequences are not allowed in this string. To include a literal "${which}", double it (as "${which}${which}") to escape it.`, 'Block labels must be plain strings.');
      value += `${which}{ ... }`;
      p.recover(T.TemplateSeqEnd);
      continue;
    }
    if (p.ty(tok) === T.EOF) {
      p.errorAt(tok, CODES.unterminatedString, 'Unterminated string literal: Unable to find the closing quote mark before the end of the file.', 'Close the label with a double quote (").');
      end = p.en(tok);
      break;
    }
    p.errorAt(tok, CODES.invalidLabel, 'Invalid string literal: This item is not valid in a string literal.', 'Block labels must be plain strings on one line.');
    p.recover(T.CQuote);
    end = p.en(tok);
    break;
  }
  return { value, start: p.st(open), end };
}
