// Character-level scanners used by the lexer: identifiers (Unicode ID_Start/ID_Continue plus
// '-'), numbers, heredoc openers and marker lines, and the extent of literal runs in quoted
// strings and heredocs. Each works on char codes from a start offset and returns an end offset.

const ID_START = /\p{ID_Start}/u;
const ID_CONTINUE = /\p{ID_Continue}/u;

function isAsciiIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isAsciiIdContinue(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Length (in UTF-16 units) of the identifier starting at i, or 0 when none starts there. */
export function scanIdent(src: string, i: number): number {
  const n = src.length;
  let j = i;
  const c0 = src.charCodeAt(j);
  if (isAsciiIdStart(c0)) j++;
  else if (c0 >= 128) {
    const cp = src.codePointAt(j)!;
    if (!ID_START.test(String.fromCodePoint(cp))) return 0;
    j += cp > 0xffff ? 2 : 1;
  } else return 0;
  while (j < n) {
    const c = src.charCodeAt(j);
    if (isAsciiIdContinue(c)) {
      j++;
      continue;
    }
    if (c < 128) break;
    const cp = src.codePointAt(j)!;
    if (!ID_CONTINUE.test(String.fromCodePoint(cp))) break;
    j += cp > 0xffff ? 2 : 1;
  }
  return j - i;
}

/** Unicode White_Space as Go's unicode.IsSpace sees it (used for marker lines and strip markers). */
export function isSpaceCode(c: number): boolean {
  switch (c) {
    case 0x20:
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x85:
    case 0xa0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202f:
    case 0x205f:
    case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200a;
  }
}

/** HCL's NumberLit: a digit, then digits, dots and exponents, never ending on a dot. */
export function scanNumber(src: string, i: number): number {
  const n = src.length;
  let j = i + 1;
  let lastGood = j;
  while (j < n) {
    const c = src.charCodeAt(j);
    if (isDigit(c)) {
      j++;
      lastGood = j;
    } else if (c === 46) {
      j++;
    } else if (c === 101 || c === 69) {
      const d = src.charCodeAt(j + 1);
      if (isDigit(d)) {
        j += 2;
        lastGood = j;
      } else if ((d === 43 || d === 45) && isDigit(src.charCodeAt(j + 2))) {
        j += 3;
        lastGood = j;
      } else break;
    } else break;
  }
  return lastGood;
}

export function scanHeredocOpen(src: string, i: number): { marker: string; end: number } | undefined {
  let j = i + 2;
  if (src.charCodeAt(j) === 45) j++;
  const len = scanIdent(src, j);
  if (len === 0) return undefined;
  const marker = src.slice(j, j + len);
  j += len;
  if (src.charCodeAt(j) === 10) return { marker, end: j + 1 };
  if (src.charCodeAt(j) === 13 && src.charCodeAt(j + 1) === 10) return { marker, end: j + 2 };
  return undefined;
}

/**
 * The end of a literal run in a quoted template: stops before `"`, a newline, or a `${`/`%{`
 * opener; `$${` and `%%{` are escapes and stay in the run; `\x` consumes two characters.
 */
export function scanQuotedLiteral(src: string, i: number): number {
  const n = src.length;
  let j = i;
  while (j < n) {
    const c = src.charCodeAt(j);
    if (c === 34 || c === 10 || c === 13) break;
    if (c === 92) {
      const d = src.charCodeAt(j + 1);
      if (j + 1 >= n || d === 10 || d === 13) break;
      j += 2;
      continue;
    }
    if (c === 36 || c === 37) {
      const d = src.charCodeAt(j + 1);
      if (d === 123) break;
      if (d === c && src.charCodeAt(j + 2) === 123) {
        j += 3;
        continue;
      }
    }
    j++;
  }
  return j;
}

/** A heredoc literal runs to the end of its line (newline included) or to a `${`/`%{` opener. */
export function scanHeredocLiteral(src: string, i: number): { end: number; contentEnd: number; eol: boolean } {
  const n = src.length;
  let j = i;
  while (j < n) {
    const c = src.charCodeAt(j);
    if (c === 10) {
      const contentEnd = j > i && src.charCodeAt(j - 1) === 13 ? j - 1 : j;
      return { end: j + 1, contentEnd, eol: true };
    }
    if (c === 36 || c === 37) {
      const d = src.charCodeAt(j + 1);
      if (d === 123) break;
      if (d === c && src.charCodeAt(j + 2) === 123) {
        j += 3;
        continue;
      }
    }
    j++;
  }
  return { end: j, contentEnd: j, eol: false };
}

export function isMarkerLine(src: string, start: number, end: number, marker: string): boolean {
  let s = start;
  let e = end;
  while (s < e && isSpaceCode(src.charCodeAt(s))) s++;
  while (e > s && isSpaceCode(src.charCodeAt(e - 1))) e--;
  return e - s === marker.length && src.startsWith(marker, s);
}
