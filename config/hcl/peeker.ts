// Parser state shared by the body, expression and template parsers: a cursor over the token list
// that hides newlines where they are insignificant (inside brackets, parentheses, `${}`), the
// recovery flag, and the diagnostics collected so far. Mirrors hclsyntax's peeker + recovery.

import type { Diagnostic, Pos, Range } from './diagnostic.js';
import { diagnosticAt } from './diagnostic.js';
import { CODES } from './codes.js';
import { endOffset, startOffset, type SourceMap } from './positions.js';
import { T, type Token, type TokenBuffer, type TokenType } from './tokens.js';

/**
 * How many expressions, blocks and template directives may sit inside one another. The parser
 * recurses once per level (and the evaluator and AST walkers after it), so without a bound a file
 * of 5,000 "(" overflows the stack; no real config comes near 256 levels.
 */
export const MAX_NESTING = 256;

export class ParserState {
  index = 0;
  /** Set after a syntax error while the parser resynchronises; suppresses cascading errors. */
  recovery = false;
  /** Nesting levels currently open (see enter()). */
  private depth = 0;
  readonly diagnostics: Diagnostic[] = [];
  private readonly newlineStack: boolean[] = [true];
  private includeNewlines = true;

  private readonly types: Uint8Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly last: number;

  constructor(
    tokens: TokenBuffer,
    readonly map: SourceMap,
  ) {
    this.types = tokens.types;
    this.starts = tokens.starts;
    this.ends = tokens.ends;
    this.last = tokens.count - 1; // the EOF token
  }

  get src(): string {
    return this.map.source;
  }

  /** Type, start and end offsets of a token. */
  ty(t: Token): TokenType {
    return this.types[t] as TokenType;
  }

  st(t: Token): number {
    return this.starts[t]!;
  }

  en(t: Token): number {
    return this.ends[t]!;
  }

  pushNewlines(include: boolean): void {
    this.newlineStack.push(include);
    this.includeNewlines = include;
  }

  popNewlines(): void {
    this.newlineStack.pop();
    this.includeNewlines = this.newlineStack[this.newlineStack.length - 1] ?? true;
  }

  private nextIndex(): number {
    let i = this.index;
    const last = this.last;
    if (!this.includeNewlines) {
      const types = this.types;
      while (i < last && types[i] === T.Newline) i++;
    }
    return i > last ? last : i;
  }

  peek(): Token {
    return this.nextIndex();
  }

  peekType(): TokenType {
    return this.types[this.nextIndex()] as TokenType;
  }

  read(): Token {
    const i = this.nextIndex();
    // The EOF token is sticky: reading it again keeps returning it.
    this.index = i === this.last ? i : i + 1;
    return i;
  }

  /** The token most recently read. */
  prev(): Token {
    return this.index > 0 ? this.index - 1 : 0;
  }

  text(t: Token): string {
    return this.map.source.slice(this.starts[t], this.ends[t]);
  }

  isKeyword(t: Token, word: string): boolean {
    const s = this.starts[t]!;
    return this.types[t] === T.Ident && this.ends[t]! - s === word.length && this.map.source.startsWith(word, s);
  }

  range(start: number, end: number): Range {
    return this.map.range(start, end);
  }

  /** From the start of `first` to the end of `last` (composite nodes span their children). */
  between(first: Range, last: Range): Range {
    return this.map.range(startOffset(first), endOffset(last));
  }

  startPos(t: Token): Pos {
    return this.map.pos(this.starts[t]!);
  }

  endPos(t: Token): Pos {
    return this.map.pos(this.ends[t]!);
  }

  tokRange(t: Token): Range {
    return this.map.range(this.starts[t]!, this.ends[t]!);
  }

  error(start: number, end: number, code: string, message: string, hint?: string): void {
    this.diagnostics.push(diagnosticAt(this.map.range(start, end), 'error', code, message, hint));
  }

  /** Error at a token unless already recovering from an earlier error. */
  errorAt(tok: Token, code: string, message: string, hint?: string): void {
    this.error(this.starts[tok]!, this.ends[tok]!, code, message, hint);
  }

  setRecovery(): void {
    this.recovery = true;
  }

  /**
   * Opens one nesting level. False when that would pass MAX_NESTING: SYN030 is reported at the
   * next token (once: recovery is set) and the caller must not descend; each enclosing level then
   * skips to its closing bracket as after any other syntax error. Pair every true with leave().
   * `at` is where to report instead of the next token (template directives are built after their
   * tokens were read).
   */
  enter(at?: { start: number; end: number }): boolean {
    if (this.depth < MAX_NESTING) {
      this.depth++;
      return true;
    }
    if (!this.recovery) {
      const tok = this.peek();
      this.error(
        at?.start ?? this.starts[tok]!,
        at?.end ?? this.ends[tok]!,
        CODES.nestingTooDeep,
        `Expression nested too deeply: More than ${MAX_NESTING} levels of brackets, parentheses, unary operators, blocks or template directives are open here.`,
        'Flatten the expression, or move parts of it into variables.',
      );
    }
    this.recovery = true;
    return false;
  }

  leave(): void {
    this.depth--;
  }

  /**
   * Skip forward to the token `end` that closes the current bracket (counting nested pairs) and
   * return it, leaving the cursor after it. Returns EOF when there is none.
   */
  recover(end: TokenType): Token {
    const start = oppositeBracket(end);
    this.recovery = true;
    let nest = 0;
    for (;;) {
      const tok = this.read();
      let ty = this.types[tok] as TokenType;
      if (end === T.TemplateSeqEnd && ty === T.TemplateControl) ty = T.TemplateInterp;
      if (ty === start && start !== undefined) nest++;
      else if (ty === end) {
        if (nest < 1) return tok;
        nest--;
      } else if (ty === T.EOF) return tok;
    }
  }

  /** Skip to the start of the next body item: past the next newline outside any bracket. */
  recoverAfterBodyItem(): void {
    this.recovery = true;
    const open: TokenType[] = [];
    for (;;) {
      const tok = this.read();
      const ty = this.types[tok] as TokenType;
      switch (ty) {
        case T.Newline:
          if (open.length === 0) return;
          break;
        case T.EOF:
          return;
        case T.OBrace:
        case T.OBrack:
        case T.OParen:
        case T.OQuote:
        case T.OHeredoc:
        case T.TemplateInterp:
        case T.TemplateControl:
          open.push(ty);
          break;
        case T.CBrace:
        case T.CBrack:
        case T.CParen:
        case T.CQuote:
        case T.CHeredoc: {
          const opener = oppositeBracket(ty);
          while (open.length > 0 && open[open.length - 1] !== opener) open.pop();
          if (open.length > 0) open.pop();
          break;
        }
        case T.TemplateSeqEnd:
          while (open.length > 0 && open[open.length - 1] !== T.TemplateInterp && open[open.length - 1] !== T.TemplateControl) {
            open.pop();
          }
          if (open.length > 0) open.pop();
          break;
        default:
          break;
      }
    }
  }
}

export function oppositeBracket(ty: TokenType): TokenType | undefined {
  switch (ty) {
    case T.OBrace:
      return T.CBrace;
    case T.OBrack:
      return T.CBrack;
    case T.OParen:
      return T.CParen;
    case T.OQuote:
      return T.CQuote;
    case T.OHeredoc:
      return T.CHeredoc;
    case T.CBrace:
      return T.OBrace;
    case T.CBrack:
      return T.OBrack;
    case T.CParen:
      return T.OParen;
    case T.CQuote:
      return T.OQuote;
    case T.CHeredoc:
      return T.OHeredoc;
    case T.TemplateControl:
    case T.TemplateInterp:
      return T.TemplateSeqEnd;
    case T.TemplateSeqEnd:
      return T.TemplateInterp;
    default:
      return undefined;
  }
}
