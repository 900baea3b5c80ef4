// Converts UTF-16 offsets into 1-based line/column positions. Columns count code points, as HCL
// counts characters rather than bytes or UTF-16 units. Lookups are mostly sequential, so the last
// line found is tried first before falling back to a binary search.

import type { Pos, Range } from './diagnostic.js';

export class SourceMap {
  private readonly lineStarts: number[] = [0];
  private readonly astral: boolean;
  private lastLine = 0;

  constructor(
    readonly file: string,
    readonly source: string,
  ) {
    // indexOf and a regular expression run natively, far faster than a charCodeAt loop.
    for (let nl = source.indexOf('\n'); nl >= 0; nl = source.indexOf('\n', nl + 1)) this.lineStarts.push(nl + 1);
    const astral = /[\uD800-\uDBFF]/.test(source);
    this.astral = astral;
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
    if (this.astral) {
      // Each surrogate pair before the offset on this line is one character, not two.
      for (let i = start; i < offset; i++) {
        const c = this.source.charCodeAt(i);
        if (c >= 0xdc00 && c <= 0xdfff && i > start) {
          const p = this.source.charCodeAt(i - 1);
          if (p >= 0xd800 && p <= 0xdbff) column--;
        }
      }
    }
    return { line: li + 1, column, offset };
  }

  range(start: number, end: number): Range {
    return { file: this.file, start: this.pos(start), end: this.pos(end) };
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
