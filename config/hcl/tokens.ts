// Token kinds produced by the lexer and consumed by the parsers. Numeric constants (not a TS enum)
// keep the hot lexer loop on small integers. Names follow hclsyntax's TokenType where one exists.

export const T = {
  EOF: 0,
  Newline: 1,
  Ident: 2,
  Number: 3,
  OQuote: 4,
  CQuote: 5,
  OHeredoc: 6,
  CHeredoc: 7,
  /** A literal chunk inside a quoted template (escapes still unprocessed). */
  QuotedLit: 8,
  /** A literal chunk inside a heredoc (one line at most). */
  StringLit: 9,
  /** `${` or `${~` */
  TemplateInterp: 10,
  /** `%{` or `%{~` */
  TemplateControl: 11,
  /** `}` or `~}` closing a template sequence. */
  TemplateSeqEnd: 12,
  OBrace: 13,
  CBrace: 14,
  OBrack: 15,
  CBrack: 16,
  OParen: 17,
  CParen: 18,
  Comma: 19,
  Dot: 20,
  Ellipsis: 21,
  Equal: 22,
  EqualOp: 23,
  NotEqual: 24,
  LessThan: 25,
  LessThanEq: 26,
  GreaterThan: 27,
  GreaterThanEq: 28,
  Plus: 29,
  Minus: 30,
  Star: 31,
  Slash: 32,
  Percent: 33,
  And: 34,
  Or: 35,
  Bang: 36,
  Question: 37,
  Colon: 38,
  FatArrow: 39,
  DoubleColon: 40,
  /** A newline inside a quoted string (an error, reported by the lexer). */
  QuotedNewline: 41,
  /** Characters that are not part of the language: `;`, `&`, `|`, backtick, stray `~`, … */
  Invalid: 42,
} as const;

export type TokenType = (typeof T)[keyof typeof T];

/**
 * The lexer's output as parallel typed arrays (struct of arrays): a parse of a large file creates
 * no per-token objects, which keeps the garbage collector out of the hot path. A token is referred
 * to by its index.
 */
export class TokenBuffer {
  types: Uint8Array;
  /** 0-based UTF-16 offsets, half-open [start, end). */
  starts: Int32Array;
  ends: Int32Array;
  count = 0;

  constructor(capacity: number) {
    const cap = Math.max(16, capacity);
    this.types = new Uint8Array(cap);
    this.starts = new Int32Array(cap);
    this.ends = new Int32Array(cap);
  }

  push(type: TokenType, start: number, end: number): void {
    if (this.count === this.types.length) this.grow();
    const i = this.count++;
    this.types[i] = type;
    this.starts[i] = start;
    this.ends[i] = end;
  }

  private grow(): void {
    const cap = this.types.length * 2;
    const types = new Uint8Array(cap);
    types.set(this.types);
    const starts = new Int32Array(cap);
    starts.set(this.starts);
    const ends = new Int32Array(cap);
    ends.set(this.ends);
    this.types = types;
    this.starts = starts;
    this.ends = ends;
  }
}

/** A token, named by its index in the TokenBuffer. */
export type Token = number;
