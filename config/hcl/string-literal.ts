// Decodes the text of one literal token: backslash escapes in quoted strings, and the `$${` / `%%{`
// escapes that both quoted strings and heredocs use to write a literal `${` / `%{`.

import { CODES } from './codes.js';
import type { ParserState } from './peeker.js';

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** Decode [start, end) of the source; `quoted` enables backslash escapes. Errors go to `p`. */
export function decodeLiteral(p: ParserState, start: number, end: number, quoted: boolean): string {
  const src = p.src;
  // Fast path: nothing to decode.
  let plain = true;
  for (let i = start; i < end; i++) {
    const c = src.charCodeAt(i);
    if ((c === 92 && quoted) || ((c === 36 || c === 37) && src.charCodeAt(i + 1) === c)) {
      plain = false;
      break;
    }
  }
  if (plain) return src.slice(start, end);

  let out = '';
  let i = start;
  let chunk = start;
  while (i < end) {
    const c = src.charCodeAt(i);
    if ((c === 36 || c === 37) && src.charCodeAt(i + 1) === c && src.charCodeAt(i + 2) === 123 && i + 2 < end) {
      out += src.slice(chunk, i) + String.fromCharCode(c) + '{';
      i += 3;
      chunk = i;
      continue;
    }
    if (c !== 92 || !quoted) {
      i++;
      continue;
    }
    out += src.slice(chunk, i);
    const d = src.charCodeAt(i + 1);
    switch (d) {
      case 110:
        out += '\n';
        i += 2;
        break;
      case 114:
        out += '\r';
        i += 2;
        break;
      case 116:
        out += '\t';
        i += 2;
        break;
      case 34:
        out += '"';
        i += 2;
        break;
      case 92:
        out += '\\';
        i += 2;
        break;
      case 117: // \uNNNN
      case 85: {
        // \UNNNNNNNN
        const len = d === 117 ? 4 : 8;
        let j = i + 2;
        while (j < i + 2 + len && j < end && isHex(src.charCodeAt(j))) j++;
        if (j - (i + 2) !== len) {
          p.error(i, j, CODES.invalidEscape, `Invalid escape sequence: The \\${String.fromCharCode(d)} escape sequence must be followed by ${len} hexadecimal digits.`, `Write ${len} hex digits, e.g. "\\${d === 117 ? 'u00e9' : 'U0001F600'}".`);
          out += src.slice(i, j);
          i = j;
          break;
        }
        const cp = parseInt(src.slice(i + 2, j), 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          p.error(i, j, CODES.invalidEscape, 'Invalid escape sequence: The escape sequence does not name a valid Unicode character.', 'Use a code point between 0 and 10FFFF that is not a surrogate.');
          out += src.slice(i, j);
        } else out += String.fromCodePoint(cp);
        i = j;
        break;
      }
      default: {
        const ch = String.fromCodePoint(src.codePointAt(i + 1) ?? 0);
        p.error(i, i + 1 + ch.length, CODES.invalidEscape, `Invalid escape sequence: The symbol "${ch}" is not a valid escape sequence selector.`, 'Valid escapes are \\n \\r \\t \\" \\\\ \\uNNNN and \\UNNNNNNNN; write "\\\\" for a literal backslash.');
        out += ch;
        i += 1 + ch.length;
        break;
      }
    }
    chunk = i;
  }
  return out + src.slice(chunk, end);
}
