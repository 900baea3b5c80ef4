// Parsing for the loader, whose stages read each top-level block once: a top-level block keeps its
// header (type, labels, offsets) and its body is parsed again from the source each time it is
// read, so the syntax tree of a whole file is never held at once. A 50 MB config's tree is over a
// gigabyte; one block's is a few kilobytes, and it is garbage as soon as its stage has read it.
// The file is lexed and parsed a piece of about CHUNK characters at a time, so neither is its
// token list (about 9 bytes per token, a token every 4 or 5 characters).

import type { Attribute, Block, Body } from './ast.js';
import type { Range } from './diagnostic.js';
import { lex } from './lexer.js';
import { parseBlockAt, parseHcl, parseTopLevelItems, type ParseResult, type TopLevelBlockHook } from './parser.js';
import { endOffset, SourceMap, sourceMapOf, startOffset } from './positions.js';
import { T, TokenBuffer, type TokenType } from './tokens.js';

const CHUNK = 1 << 20;

/**
 * Parses `source` as parseHcl does, except that each top-level block's `body` is parsed anew on
 * every read (not cached: read it once per use, and keep what you need from it). A file with any
 * diagnostic is parsed the usual way, fully held: the lexer's and parser's recovery decide what
 * follows an error, so a piece of it cannot be parsed on its own. `chunk`: the piece size in
 * characters (tests make it tiny to cut at every top-level item).
 */
export function parseHclDeferred(source: string, fileName: string, chunk = CHUNK): ParseResult {
  const map = new SourceMap(fileName, source);
  const cuts = new CutFinder(chunk);
  if (lex(map, 0, source.length, cuts).diagnostics.length > 0) return parseHcl(source, fileName);
  const types = new Map<string, string>();
  const hook: TopLevelBlockHook = (block) => {
    const type = types.get(block.type) ?? block.type;
    types.set(type, type);
    return new DeferredBlock(map, type, block);
  };
  const attributes: Attribute[] = [];
  const blocks: Block[] = [];
  let from = 0;
  for (const to of [...cuts.cuts, source.length]) {
    if (to <= from && to < source.length) continue;
    let items;
    try {
      items = parseTopLevelItems(map, from, to, hook);
    } catch (err) {
      if (err instanceof RangeError) return parseHcl(source, fileName);
      throw err;
    }
    if (items.diagnostics.length > 0) return parseHcl(source, fileName);
    for (const a of items.body.attributes) attributes.push(a);
    for (const b of items.body.blocks) blocks.push(b);
    from = to;
  }
  // A top-level attribute set twice in two pieces is an error that no piece saw.
  if (new Set(attributes.map((a) => a.name)).size !== attributes.length) return parseHcl(source, fileName);
  const body: Body = { kind: 'Body', attributes, blocks, range: map.range(0, source.length) };
  return { file: { name: fileName, source, body }, diagnostics: [] };
}

/**
 * The block at `range` (a block's whole range, top-level or nested) parsed again from the source on
 * its own, for what a loaded config keeps instead of a syntax tree (a task's objective, a custom
 * tool's fields). Only for a file without diagnostics, whose graph is the only one a load returns:
 * at the start of any block there, the lexer and the parser are in their initial state.
 */
export function reparseBlock(range: Range): Block {
  const map = sourceMapOf(range);
  if (map === undefined) throw new Error('internal error: only a parsed block can be parsed again');
  return blockAt(map, startOffset(range), endOffset(range));
}

function blockAt(map: SourceMap, start: number, end: number): Block {
  const block = parseBlockAt(map, start, end);
  if (block === undefined || startOffset(block.range) !== start || endOffset(block.range) !== end) {
    throw new Error(`internal error: the block at ${map.file}:${map.pos(start).line} does not parse on its own`);
  }
  return block;
}

/** Token kinds that open and close a nesting: brackets, quotes, heredocs, `${`/`%{` sequences. */
const OPENS: ReadonlySet<TokenType> = new Set([T.OBrace, T.OBrack, T.OParen, T.OQuote, T.OHeredoc, T.TemplateInterp, T.TemplateControl]);
const CLOSES: ReadonlySet<TokenType> = new Set([T.CBrace, T.CBrack, T.CParen, T.CQuote, T.CHeredoc, T.TemplateSeqEnd]);

/**
 * A token sink that keeps no tokens: it notes, about every `every` characters, the end of a newline
 * outside any nesting. In a file without diagnostics that is the end of a top-level item, where
 * the lexer and the parser are in their initial state, so the file can be read in pieces there.
 */
class CutFinder extends TokenBuffer {
  readonly cuts: number[] = [];
  private depth = 0;
  private last = 0;

  constructor(private readonly every: number) {
    super(0);
  }

  override push(type: TokenType, _start: number, end: number): void {
    if (OPENS.has(type)) this.depth++;
    else if (CLOSES.has(type)) this.depth--;
    else if (type === T.Newline && this.depth === 0 && end - this.last >= this.every) {
      this.cuts.push(end);
      this.last = end;
    }
  }
}

/**
 * A top-level block of a file without diagnostics, as small as it can be (a large config has
 * hundreds of thousands): offsets instead of ranges, which are computed when read, and the usual
 * single label without an array.
 */
class DeferredBlock implements Block {
  private readonly start: number;
  private readonly end: number;
  private readonly openBrace: number;
  /** The only label, when there is exactly one (else `more`). */
  private readonly label: string | undefined;
  private readonly labelStart: number;
  private readonly labelEnd: number;
  private readonly more: { labels: string[]; offsets: number[] } | undefined;

  constructor(
    private readonly map: SourceMap,
    readonly type: string,
    parsed: Block,
  ) {
    this.start = startOffset(parsed.range);
    this.end = endOffset(parsed.range);
    this.openBrace = startOffset(parsed.openBraceRange);
    const one = parsed.labels.length === 1;
    this.label = one ? parsed.labels[0] : undefined;
    this.labelStart = one ? startOffset(parsed.labelRanges[0]!) : 0;
    this.labelEnd = one ? endOffset(parsed.labelRanges[0]!) : 0;
    this.more = one ? undefined : { labels: parsed.labels.slice(), offsets: parsed.labelRanges.flatMap((r) => [startOffset(r), endOffset(r)]) };
  }

  get kind(): 'Block' {
    return 'Block';
  }

  get body(): Body {
    return blockAt(this.map, this.start, this.end).body;
  }

  get labels(): string[] {
    return this.more === undefined ? [this.label!] : this.more.labels.slice();
  }

  get labelRanges(): Range[] {
    if (this.more === undefined) return [this.map.range(this.labelStart, this.labelEnd)];
    const o = this.more.offsets;
    return this.more.labels.map((_, i) => this.map.range(o[2 * i]!, o[2 * i + 1]!));
  }

  get range(): Range {
    return this.map.range(this.start, this.end);
  }

  get typeRange(): Range {
    return this.map.range(this.start, this.start + this.type.length);
  }

  get openBraceRange(): Range {
    return this.map.range(this.openBrace, this.openBrace + 1);
  }

  get closeBraceRange(): Range {
    return this.map.range(this.end - 1, this.end);
  }
}
