// Converts UTF-16 offsets into 1-based line/column positions. Columns count code points, as HCL
// counts characters rather than bytes or UTF-16 units. Lookups are mostly sequential, so the last
// line found is tried first before falling back to a binary search.

import type { Pos, Range } from './diagnostic.js';

export class SourceMap {
  /** Offset of each line's first character (typed: a 50 MB file has millions of lines). */
  private readonly lineStarts: Int32Array;
  /**
   * Offset of the second unit of every surrogate pair (an emoji, say), ascending. Each such pair
   * before an offset on its line makes the column one less; they are counted by binary search, so
   * one emoji in a long line costs O(log pairs) per lookup, not a scan of the line.
   */
  private readonly pairEnds: number[] = [];
  private lastLine = 0;

  constructor(
    readonly file: string,
    readonly source: string,
  ) {
    // indexOf and a regular expression run natively, far faster than a charCodeAt loop. Counted
    // first, then filled: the array is allocated once at its size.
    let lines = 1;
    for (let nl = source.indexOf('\n'); nl >= 0; nl = source.indexOf('\n', nl + 1)) lines++;
    this.lineStarts = new Int32Array(lines);
    let li = 1;
    for (let nl = source.indexOf('\n'); nl >= 0; nl = source.indexOf('\n', nl + 1)) this.lineStarts[li++] = nl + 1;
    if (/[\uD800-\uDBFF]/.test(source)) {
      for (const m of source.matchAll(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)) this.pairEnds.push(m.index + 1);
    }
  }

  /** 0-based index of the line containing `offset`. */
  lineIndex(offset: number): number {
    const starts = this.lineStarts;
    let li = this.lastLine;
    const s = starts[li]!;
    if (offset >= s) {
      const next = starts[li + 1];
      if (next === undefined || offset < next) return li;
      const next2 = starts[li + 2];
      if (next2 === undefined || offset < next2) {
        this.lastLine = li + 1;
        return li + 1;
      }
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    li = lo;
    this.lastLine = li;
    return li;
  }

  pos(offset: number): Pos {
    const li = this.lineIndex(offset);
    const start = this.lineStarts[li]!;
    let column = offset - start + 1;
    // Pairs that end after the line start and before the offset are one character each.
    if (this.pairEnds.length > 0) column -= this.pairsBefore(offset) - this.pairsBefore(start + 1);
    return { line: li + 1, column, offset };
  }

  /** How many pair ends are below `offset`. */
  private pairsBefore(offset: number): number {
    const ends = this.pairEnds;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  range(start: number, end: number): Range {
    return new SourceRange(this, start, end);
  }

  /** The text of the 1-based line, without its newline. */
  lineText(line: number): string {
    const s = this.lineStarts[line - 1];
    if (s === undefined) return '';
    const e = this.lineStarts[line];
    let text = this.source.slice(s, e === undefined ? undefined : e - 1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return text;
  }
}

/**
 * A range that keeps only its two offsets and computes line and column when read. A large config
 * has millions of ranges (every AST node has one or more); two position objects each made the
 * parse of a 50 MB file hold over a gigabyte. Positions are computed afresh on each read (frozen:
 * they are values). The map sits under a symbol key, which for…in and Object.entries skip, so
 * walking or freezing a graph never reaches it (a plain assignment: defineProperty per range was
 * the parser's hottest line).
 */
const MAP = Symbol('source map');

export class SourceRange implements Range {
  // Not private: sourceMapOf reads it; the symbol is this module's own, so nothing else can.
  readonly [MAP]: SourceMap;
  constructor(
    map: SourceMap,
    readonly startOffset: number,
    readonly endOffset: number,
  ) {
    this[MAP] = map;
  }

  get file(): string {
    return this[MAP].file;
  }

  get start(): Pos {
    return Object.freeze(this[MAP].pos(this.startOffset));
  }

  get end(): Pos {
    return Object.freeze(this[MAP].pos(this.endOffset));
  }

  /** From this range's start to the end of `last` (in the same file). */
  to(last: Range): Range {
    return new SourceRange(this[MAP], this.startOffset, endOffset(last));
  }

  toJSON(): { file: string; start: Pos; end: Pos } {
    return { file: this.file, start: this.start, end: this.end };
  }
}

/** The source map a range was made from, when it is a SourceRange (as every parsed range is). */
export function sourceMapOf(r: Range): SourceMap | undefined {
  return r instanceof SourceRange ? r[MAP] : undefined;
}

/** A range's offsets, without computing line and column when it is a SourceRange. */
export function startOffset(r: Range): number {
  return r instanceof SourceRange ? r.startOffset : r.start.offset;
}

export function endOffset(r: Range): number {
  return r instanceof SourceRange ? r.endOffset : r.end.offset;
}
