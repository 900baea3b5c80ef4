// Parses the inside of a quoted string or heredoc into TemplateParts, in HCL's three steps: read
// the flat sequence of literals, interpolations and directives (applying `~` strip markers), trim
// the common indentation of a `<<-` heredoc, then nest %{if}/%{for} directives into a tree.

import type { Expression, TemplatePart } from './ast.js';
import { CODES } from './codes.js';
import { isSpaceCode } from './scanners.js';
import type { ParserState } from './peeker.js';
import { decodeLiteral } from './string-literal.js';
import { closest } from './suggest.js';
import { T, type TokenType } from './tokens.js';

type Flat =
  | { k: 'lit'; value: string; start: number; end: number }
  | { k: 'interp'; expr: Expression; start: number; end: number }
  | { k: 'if'; cond: Expression; start: number; end: number }
  | { k: 'for'; keyVar?: string; valueVar: string; coll: Expression; start: number; end: number }
  | { k: 'else' | 'endif' | 'endfor'; start: number; end: number }
  | { k: 'end'; start: number; end: number };

export type ParseExpression = (p: ParserState) => Expression;

export interface ParsedTemplate {
  parts: TemplatePart[];
  /** True when the template is exactly one interpolation (HCL's TemplateWrapExpr). */
  passthrough: boolean;
}

function trimLeftSpace(s: string): string {
  let i = 0;
  while (i < s.length && isSpaceCode(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}

function trimRightSpace(s: string): string {
  let e = s.length;
  while (e > 0 && isSpaceCode(s.charCodeAt(e - 1))) e--;
  return e === s.length ? s : s.slice(0, e);
}

/** Parse template tokens up to `end` (CQuote or CHeredoc), which is consumed. */
export function parseTemplate(p: ParserState, end: TokenType, flush: boolean, parseExpression: ParseExpression): ParsedTemplate {
  const flat = readFlatParts(p, end, parseExpression);
  if (flush) flushHeredoc(flat);
  const melded = meldLiterals(flat);
  const passthrough = melded.length === 2 && melded[0]!.k === 'interp';
  const cursor = { i: 0 };
  const parts: TemplatePart[] = [];
  while (melded[cursor.i]!.k !== 'end') {
    const part = parseTemplateNode(p, melded, cursor);
    if (part) parts.push(part);
  }
  // At its exact length: a template's parts can outlive the parse (a task's objective).
  return { parts: parts.slice(), passthrough };
}

function readFlatParts(p: ParserState, end: TokenType, parseExpression: ParseExpression): Flat[] {
  const parts: Flat[] = [];
  const startTok = p.peek();
  let ltrimNext = false;
  let nextCanTrimPrev = false;
  let endStart = p.st(startTok);
  let endEnd = p.st(startTok);
  const quoted = end === T.CQuote;

  const trimPrev = (openerLen: number): void => {
    // `${~` / `%{~` strip the whitespace at the end of the literal just before it.
    if (openerLen === 3 && parts.length > 0) {
      const prev = parts[parts.length - 1]!;
      if (prev.k === 'lit') prev.value = trimRightSpace(prev.value);
    }
  };
  const closeSequence = (): void => {
    const close = p.read();
    if (p.en(close) - p.st(close) === 2) ltrimNext = true; // `~}`
  };

  for (;;) {
    const next = p.read();
    if (p.ty(next) === end) {
      endStart = p.st(next);
      endEnd = p.en(next);
      break;
    }
    const ltrim = ltrimNext;
    ltrimNext = false;
    const canTrimPrev = nextCanTrimPrev;
    nextCanTrimPrev = false;

    if (p.ty(next) === T.QuotedLit || p.ty(next) === T.StringLit) {
      let value = decodeLiteral(p, p.st(next), p.en(next), p.ty(next) === T.QuotedLit);
      if (ltrim) value = trimLeftSpace(value);
      parts.push({ k: 'lit', value, start: p.st(next), end: p.en(next) });
      nextCanTrimPrev = true;
      continue;
    }

    if (p.ty(next) === T.TemplateInterp) {
      if (canTrimPrev) trimPrev(p.en(next) - p.st(next));
      p.pushNewlines(false);
      const expr = parseExpression(p);
      const close = p.peek();
      if (p.ty(close) !== T.TemplateSeqEnd) {
        if (!p.recovery) {
          if (p.ty(close) === T.EOF) {
            p.error(p.st(next), p.en(next), CODES.interpolationSyntax, 'Unclosed template interpolation sequence: There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.', 'Add the closing "}".');
          } else if (p.ty(close) === T.Colon) {
            p.errorAt(close, CODES.interpolationSyntax, 'Extra characters after interpolation expression: Template interpolation doesn\'t expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with "$${" instead of just "${".', 'Write "$${" to produce a literal "${".');
          } else if ((p.ty(close) === T.CQuote || p.ty(close) === T.OQuote) && quoted) {
            p.error(p.st(next), p.en(next), CODES.interpolationSyntax, 'Unclosed template interpolation sequence: There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.', 'Add the closing "}" before the closing quote.');
          } else {
            p.errorAt(close, CODES.interpolationSyntax, 'Extra characters after interpolation expression: Expected a closing brace to end the interpolation expression, but found extra characters.', 'If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${".');
          }
        }
        const closed = p.recover(T.TemplateSeqEnd);
        p.popNewlines();
        parts.push({ k: 'interp', expr, start: p.st(next), end: p.en(closed) });
        continue;
      }
      closeSequence();
      p.popNewlines();
      parts.push({ k: 'interp', expr, start: p.st(next), end: p.en(close) });
      continue;
    }

    if (p.ty(next) === T.TemplateControl) {
      if (canTrimPrev) trimPrev(p.en(next) - p.st(next));
      p.pushNewlines(false);
      const directive = readDirective(p, p.st(next), p.en(next), parseExpression);
      if (directive === undefined) {
        p.recover(T.TemplateSeqEnd);
        p.popNewlines();
        continue;
      }
      const close = p.peek();
      if (p.ty(close) !== T.TemplateSeqEnd) {
        if (!p.recovery) {
          p.errorAt(close, CODES.templateDirective, `Extra characters in ${directive.k} marker: Expected a closing brace to end the sequence, but found extra characters.`, 'Close the directive with "}".');
        }
        p.recover(T.TemplateSeqEnd);
        directive.end = p.en(p.prev());
      } else {
        closeSequence();
        directive.end = p.en(close);
      }
      p.popNewlines();
      parts.push(directive);
      continue;
    }

    // Anything else (EOF, a newline inside quotes, …) means the template never closed.
    if (!p.recovery) {
      const heredoc = end === T.CHeredoc;
      p.errorAt(
        next,
        heredoc ? CODES.unterminatedHeredoc : CODES.unterminatedString,
        heredoc
          ? 'Unterminated template string: No closing marker was found for the heredoc.'
          : 'Unterminated template string: No closing marker was found for the string.',
        heredoc ? 'End the heredoc with a line holding only its marker.' : 'Close the string with a double quote (") on the same line.',
      );
    }
    const final = p.recover(end);
    endStart = p.st(final);
    endEnd = p.en(final);
    break;
  }
  parts.push({ k: 'end', start: endStart, end: endEnd });
  return parts;
}

function readDirective(p: ParserState, start: number, openEnd: number, parseExpression: ParseExpression): Flat | undefined {
  const kw = p.peek();
  if (p.ty(kw) !== T.Ident) {
    if (!p.recovery) {
      p.errorAt(kw, CODES.templateDirective, 'Invalid template directive: A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.', 'Write %{if …}, %{else}, %{endif}, %{for … in …} or %{endfor}; write "%%{" for a literal "%{".');
    }
    return undefined;
  }
  p.read();
  const word = p.text(kw);
  switch (word) {
    case 'if':
      return { k: 'if', cond: parseExpression(p), start, end: openEnd };
    case 'else':
    case 'endif':
    case 'endfor':
      return { k: word, start, end: openEnd };
    case 'for': {
      if (p.peekType() !== T.Ident) {
        if (!p.recovery) p.errorAt(p.peek(), CODES.templateDirective, "Invalid 'for' directive: For directive requires variable name after 'for'.", 'Write %{for item in list} or %{for key, value in map}.');
        return undefined;
      }
      let valueVar = p.text(p.read());
      let keyVar: string | undefined;
      if (p.peekType() === T.Comma) {
        p.read();
        keyVar = valueVar;
        if (p.peekType() !== T.Ident) {
          if (!p.recovery) p.errorAt(p.peek(), CODES.templateDirective, "Invalid 'for' directive: For directive requires value variable name after comma.", 'Write %{for key, value in map}.');
          return undefined;
        }
        valueVar = p.text(p.read());
      }
      if (!p.isKeyword(p.peek(), 'in')) {
        if (!p.recovery) p.errorAt(p.peek(), CODES.templateDirective, "Invalid 'for' directive: For directive requires 'in' keyword after names.", 'Write %{for item in list}.');
        return undefined;
      }
      p.read();
      const coll = parseExpression(p);
      const f: Flat = { k: 'for', valueVar, coll, start, end: openEnd };
      if (keyVar !== undefined) f.keyVar = keyVar;
      return f;
    }
    default: {
      if (!p.recovery) {
        const suggestion = closest(word, ['if', 'for', 'else', 'endif', 'endfor']);
        p.errorAt(
          kw,
          CODES.templateDirective,
          `Invalid template control keyword: "${word}" is not a valid template control keyword.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
          'Valid keywords are if, else, endif, for and endfor; write "%%{" for a literal "%{".',
        );
      }
      return undefined;
    }
  }
}

/** `<<-` heredocs: remove the smallest indentation (in characters) shared by all non-blank lines. */
function flushHeredoc(parts: Flat[]): void {
  let minSpaces = Number.MAX_SAFE_INTEGER;
  let newline = true;
  const adjust: Extract<Flat, { k: 'lit' }>[] = [];
  for (const part of parts) {
    if (newline) {
      newline = false;
      let spaces: number;
      if (part.k === 'lit') {
        const trimmed = trimLeftSpace(part.value);
        if (trimmed.length === 0 && part.value.endsWith('\n')) {
          spaces = Number.MAX_SAFE_INTEGER; // blank lines do not count
        } else {
          spaces = countCodePoints(part.value, part.value.length - trimmed.length);
          adjust.push(part);
        }
      } else if (part.k === 'end') {
        break;
      } else {
        spaces = 0;
      }
      if (spaces < minSpaces) minSpaces = spaces;
    }
    if (part.k === 'lit' && part.value.endsWith('\n')) newline = true;
  }
  for (const lit of adjust) {
    let units = 0;
    for (let n = 0; n < minSpaces && units < lit.value.length; n++) {
      const c = lit.value.charCodeAt(units);
      units += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    }
    lit.value = lit.value.slice(units);
    lit.start += units;
  }
}

function countCodePoints(s: string, units: number): number {
  let n = 0;
  for (let i = 0; i < units; i++) {
    const c = s.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff)) n++;
  }
  return n;
}

function meldLiterals(parts: Flat[]): Flat[] {
  const out: Flat[] = [];
  for (const part of parts) {
    const prev = out[out.length - 1];
    if (part.k === 'lit' && prev !== undefined && prev.k === 'lit') {
      prev.value += part.value;
      prev.end = part.end;
    } else out.push(part);
  }
  return out;
}

function parseTemplateNode(p: ParserState, parts: Flat[], cursor: { i: number }): TemplatePart | undefined {
  const tok = parts[cursor.i]!;
  switch (tok.k) {
    case 'lit':
      cursor.i++;
      return { kind: 'TemplateLiteral', value: tok.value, range: p.range(tok.start, tok.end) };
    case 'interp':
      cursor.i++;
      return { kind: 'TemplateInterpolation', expr: tok.expr, range: p.range(tok.start, tok.end) };
    case 'if':
    case 'for': {
      // Directives nest by recursion here: bounded like any other nesting.
      if (!p.enter(tok)) {
        skipDirective(parts, cursor);
        return undefined;
      }
      const part = tok.k === 'if' ? parseIf(p, parts, cursor) : parseFor(p, parts, cursor);
      p.leave();
      return part;
    }
    case 'end':
      cursor.i++;
      p.error(tok.start, tok.end, CODES.templateDirective, 'Unexpected end of template: The control directives within this template are unbalanced.', 'Check that every %{if} has an %{endif} and every %{for} an %{endfor}.');
      return undefined;
    default:
      cursor.i++;
      p.error(tok.start, tok.end, CODES.templateDirective, `Unexpected ${tok.k} directive: The control directives within this template are unbalanced.`, `Remove this %{${tok.k}} or add the %{${tok.k === 'endfor' ? 'for' : 'if'}} it closes.`);
      return undefined;
  }
}

/** Moves the cursor past the directive it is on, nested directives included (or to the end). */
function skipDirective(parts: Flat[], cursor: { i: number }): void {
  let open = 0;
  for (;;) {
    const part = parts[cursor.i]!;
    if (part.k === 'end') return;
    cursor.i++;
    if (part.k === 'if' || part.k === 'for') open++;
    else if ((part.k === 'endif' || part.k === 'endfor') && --open === 0) return;
  }
}

/** Where a directive starts, in words: always in the same file as the error itself. */
function describeAt(p: ParserState, offset: number): string {
  const pos = p.map.pos(offset);
  return `line ${pos.line}, column ${pos.column}`;
}

function parseIf(p: ParserState, parts: Flat[], cursor: { i: number }): TemplatePart | undefined {
  const open = parts[cursor.i++] as Extract<Flat, { k: 'if' }>;
  const thenParts: TemplatePart[] = [];
  let elseParts: TemplatePart[] | undefined;
  let current = thenParts;
  for (;;) {
    const next = parts[cursor.i]!;
    if (next.k === 'end') {
      p.error(next.start, next.end, CODES.templateDirective, `Unexpected end of template: The if directive at ${describeAt(p, open.start)} is missing its corresponding endif directive.`, 'Add %{endif} after the conditional text.');
      return undefined;
    }
    if (next.k === 'else' || next.k === 'endif' || next.k === 'endfor') {
      cursor.i++;
      if (next.k === 'else') {
        if (elseParts === undefined) {
          elseParts = [];
          current = elseParts;
          continue;
        }
        p.error(next.start, next.end, CODES.templateDirective, `Unexpected else directive: Already in the else clause for the if started at ${describeAt(p, open.start)}.`, 'An %{if} takes at most one %{else}.');
        return undefined;
      }
      if (next.k === 'endif') {
        const part: TemplatePart = { kind: 'TemplateIf', condition: open.cond, then: thenParts, range: p.range(open.start, next.end) };
        if (elseParts !== undefined) part.else = elseParts;
        return part;
      }
      p.error(next.start, next.end, CODES.templateDirective, `Unexpected endfor directive: Expecting an endif directive for the if started at ${describeAt(p, open.start)}.`, 'Close the %{if} with %{endif} before this %{endfor}.');
      return undefined;
    }
    const part = parseTemplateNode(p, parts, cursor);
    if (part) current.push(part);
  }
}

function parseFor(p: ParserState, parts: Flat[], cursor: { i: number }): TemplatePart | undefined {
  const open = parts[cursor.i++] as Extract<Flat, { k: 'for' }>;
  const body: TemplatePart[] = [];
  for (;;) {
    const next = parts[cursor.i]!;
    if (next.k === 'end') {
      p.error(next.start, next.end, CODES.templateDirective, `Unexpected end of template: The for directive at ${describeAt(p, open.start)} is missing its corresponding endfor directive.`, 'Add %{endfor} after the repeated text.');
      return undefined;
    }
    if (next.k === 'else' || next.k === 'endif' || next.k === 'endfor') {
      cursor.i++;
      if (next.k === 'endfor') {
        const part: TemplatePart = { kind: 'TemplateFor', valueVar: open.valueVar, collection: open.coll, body, range: p.range(open.start, next.end) };
        if (open.keyVar !== undefined) part.keyVar = open.keyVar;
        return part;
      }
      p.error(next.start, next.end, CODES.templateDirective, `Unexpected ${next.k} directive: Expecting an endfor directive for the for started at ${describeAt(p, open.start)}.`, 'Close the %{for} with %{endfor} first.');
      return undefined;
    }
    const part = parseTemplateNode(p, parts, cursor);
    if (part) body.push(part);
  }
}
