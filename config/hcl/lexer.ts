// The HCL native-syntax scanner: one pass over char codes producing a flat token list. It mirrors
// hclsyntax's Ragel scanner (a mode stack for quoted templates, heredocs and `${…}` nesting) so
// that token boundaries — and therefore strip markers and heredoc indentation — behave the same.

import type { Diagnostic } from './diagnostic.js';
import { diagnosticAt } from './diagnostic.js';
import { CODES } from './codes.js';
import type { SourceMap } from './positions.js';
import { isDigit, isMarkerLine, scanHeredocLiteral, scanHeredocOpen, scanIdent, scanNumber, scanQuotedLiteral } from './scanners.js';
import { T, TokenBuffer, type TokenType } from './tokens.js';

const MODE_MAIN = 0;
const MODE_STRING = 1;
const MODE_HEREDOC = 2;

interface Heredoc {
  marker: string;
  startOfLine: boolean;
}

export interface LexResult {
  tokens: TokenBuffer;
  diagnostics: Diagnostic[];
}

/**
 * Lexes `map.source`, or only [from, to) of it: the loader reads a large file a piece at a time
 * that way (see deferredBlock.ts), starting where the lexer's state is the same as at the start of
 * a file. `into` receives the tokens (default: a new buffer).
 */
// Roughly one token per five characters in typical configuration.
export function lex(map: SourceMap, from = 0, to = map.source.length, into = new TokenBuffer(((to - from) >> 2) + 16)): LexResult {
  const src = map.source;
  const n = to;
  const tokens = into;
  const diagnostics: Diagnostic[] = [];

  // The mode stack mirrors the scanner's fcall/fret stack; `braces`/`retBraces` decide whether a
  // `}` closes an object/block or returns from a template sequence to its enclosing template.
  let mode = MODE_MAIN;
  const modeStack: number[] = [];
  let braces = 0;
  const retBraces: number[] = [];
  const heredocs: Heredoc[] = [];

  const push = (type: TokenType, start: number, end: number): void => {
    tokens.push(type, start, end);
  };
  // Like hclsyntax, some mistakes are reported only the first time (or first few times) in a
  // file: a file full of semicolons gets one explanation, not fifty.
  const told: Record<string, number> = {};
  const limits: Record<string, number> = { semicolon: 1, apostrophe: 1, bitwise: 4 };
  const invalid = (start: number, end: number, summary: string, detail: string, code: string, kind?: string, hint?: string): void => {
    tokens.push(T.Invalid, start, end);
    if (kind !== undefined) {
      const n = told[kind] ?? 0;
      told[kind] = n + 1;
      if (kind === 'backtick' ? n % 2 === 1 : n >= (limits[kind] ?? Infinity)) return;
    }
    diagnostics.push(diagnosticAt(map.range(start, end), 'error', code, `${summary}: ${detail}`, hint));
  };
  // A line comment ends at its newline. The newline token that ends the line spans the whole
  // comment, as in hclsyntax (which turns the comment into the newline), so errors reported "at
  // the newline" point where HashiCorp's parser points.
  const lineComment = (start: number): number => {
    const nl = src.indexOf('\n', start);
    if (nl < 0) return n;
    push(T.Newline, start, nl + 1);
    return nl + 1;
  };
  const call = (next: number): void => {
    modeStack.push(mode);
    mode = next;
  };
  const ret = (): void => {
    mode = modeStack.pop() ?? MODE_MAIN;
  };
  const beginSequence = (type: TokenType, start: number, end: number): void => {
    push(type, start, end);
    braces++;
    retBraces.push(braces);
    const top = heredocs[heredocs.length - 1];
    if (mode === MODE_HEREDOC && top) top.startOfLine = false;
    call(MODE_MAIN);
  };

  let i = from;
  while (i < n) {
    if (mode === MODE_MAIN) {
      const c = src.charCodeAt(i);
      switch (c) {
        case 32: // space
        case 9: // tab
          i++;
          continue;
        case 10:
          push(T.Newline, i, i + 1);
          i++;
          continue;
        case 13:
          if (src.charCodeAt(i + 1) === 10) {
            push(T.Newline, i, i + 2);
            i += 2;
          } else {
            invalid(i, i + 1, 'Invalid character', 'This character is not used within the language.', CODES.invalidCharacter);
            i++;
          }
          continue;
        case 35: // #
          i = lineComment(i);
          continue;
        case 47: {
          // '/'
          const d = src.charCodeAt(i + 1);
          if (d === 47) {
            i = lineComment(i);
            continue;
          }
          if (d === 42) {
            const close = src.indexOf('*/', i + 2);
            if (close >= 0) {
              i = close + 2;
              continue;
            }
            // An unterminated "/*" is not a comment at all: like hclsyntax, scan it as "/" and
            // "*" and let the parser report where that stops making sense.
          }
          push(T.Slash, i, i + 1);
          i++;
          continue;
        }
        case 34: // "
          push(T.OQuote, i, i + 1);
          i++;
          call(MODE_STRING);
          continue;
        case 123: // {
          push(T.OBrace, i, i + 1);
          braces++;
          i++;
          continue;
        case 125: // }
          if (retBraces.length > 0 && retBraces[retBraces.length - 1] === braces) {
            push(T.TemplateSeqEnd, i, i + 1);
            braces--;
            retBraces.pop();
            ret();
          } else {
            push(T.CBrace, i, i + 1);
            braces--;
          }
          i++;
          continue;
        case 126: // ~
          if (src.charCodeAt(i + 1) === 125) {
            // `~}` always yields a sequence end, even after a plain `{`, so the parser can report
            // the misused strip marker instead of a confusing brace mismatch.
            push(T.TemplateSeqEnd, i, i + 2);
            if (retBraces.length > 0 && retBraces[retBraces.length - 1] === braces) {
              retBraces.pop();
              braces--;
              ret();
            } else {
              braces--;
            }
            i += 2;
            continue;
          }
          invalid(i, i + 1, 'Unsupported operator', 'Bitwise operators are not supported. Did you mean boolean NOT ("!")?', CODES.unsupportedOperator, 'bitwise', 'Use "!" to negate a bool.');
          i++;
          continue;
        case 91:
          push(T.OBrack, i, i + 1);
          i++;
          continue;
        case 93:
          push(T.CBrack, i, i + 1);
          i++;
          continue;
        case 40:
          push(T.OParen, i, i + 1);
          i++;
          continue;
        case 41:
          push(T.CParen, i, i + 1);
          i++;
          continue;
        case 44:
          push(T.Comma, i, i + 1);
          i++;
          continue;
        case 46: // .
          if (src.charCodeAt(i + 1) === 46 && src.charCodeAt(i + 2) === 46) {
            push(T.Ellipsis, i, i + 3);
            i += 3;
          } else {
            push(T.Dot, i, i + 1);
            i++;
          }
          continue;
        case 61: {
          // =
          const d = src.charCodeAt(i + 1);
          if (d === 61) {
            push(T.EqualOp, i, i + 2);
            i += 2;
          } else if (d === 62) {
            push(T.FatArrow, i, i + 2);
            i += 2;
          } else {
            push(T.Equal, i, i + 1);
            i++;
          }
          continue;
        }
        case 33: // !
          if (src.charCodeAt(i + 1) === 61) {
            push(T.NotEqual, i, i + 2);
            i += 2;
          } else {
            push(T.Bang, i, i + 1);
            i++;
          }
          continue;
        case 60: {
          // <
          if (src.charCodeAt(i + 1) === 60) {
            const h = scanHeredocOpen(src, i);
            if (h) {
              push(T.OHeredoc, i, h.end);
              heredocs.push({ marker: h.marker, startOfLine: true });
              i = h.end;
              call(MODE_HEREDOC);
              continue;
            }
          }
          if (src.charCodeAt(i + 1) === 61) {
            push(T.LessThanEq, i, i + 2);
            i += 2;
          } else {
            push(T.LessThan, i, i + 1);
            i++;
          }
          continue;
        }
        case 62: // >
          if (src.charCodeAt(i + 1) === 61) {
            push(T.GreaterThanEq, i, i + 2);
            i += 2;
          } else {
            push(T.GreaterThan, i, i + 1);
            i++;
          }
          continue;
        case 43:
          push(T.Plus, i, i + 1);
          i++;
          continue;
        case 45:
          push(T.Minus, i, i + 1);
          i++;
          continue;
        case 42: // * (hclsyntax scans "**" as two stars; the parser then rejects the second)
          push(T.Star, i, i + 1);
          i++;
          continue;
        case 37:
          push(T.Percent, i, i + 1);
          i++;
          continue;
        case 38: // &
          if (src.charCodeAt(i + 1) === 38) {
            push(T.And, i, i + 2);
            i += 2;
          } else {
            invalid(i, i + 1, 'Unsupported operator', 'Bitwise operators are not supported. Did you mean boolean AND ("&&")?', CODES.unsupportedOperator, 'bitwise', 'Write "&&" for a logical AND.');
            i++;
          }
          continue;
        case 124: // |
          if (src.charCodeAt(i + 1) === 124) {
            push(T.Or, i, i + 2);
            i += 2;
          } else {
            invalid(i, i + 1, 'Unsupported operator', 'Bitwise operators are not supported. Did you mean boolean OR ("||")?', CODES.unsupportedOperator, 'bitwise', 'Write "||" for a logical OR.');
            i++;
          }
          continue;
        case 94: // ^
          invalid(i, i + 1, 'Unsupported operator', 'Bitwise operators are not supported.', CODES.unsupportedOperator, 'bitwise');
          i++;
          continue;
        case 63:
          push(T.Question, i, i + 1);
          i++;
          continue;
        case 58: // :
          if (src.charCodeAt(i + 1) === 58) {
            push(T.DoubleColon, i, i + 2);
            i += 2;
          } else {
            push(T.Colon, i, i + 1);
            i++;
          }
          continue;
        case 59: // ;
          invalid(
            i,
            i + 1,
            'Invalid character',
            'The ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.',
            CODES.invalidCharacter,
            'semicolon',
            'Remove the ";": put each argument on its own line, and separate list items with commas.',
          );
          i++;
          continue;
        case 96: // `
          invalid(
            i,
            i + 1,
            'Invalid character',
            'The "`" character is not valid. To create a multi-line string, use the "heredoc" syntax, like "<<EOT".',
            CODES.invalidCharacter,
            'backtick',
            'Use double quotes for a string, or <<EOT … EOT for text over several lines.',
          );
          i++;
          continue;
        case 39: // '
          invalid(
            i,
            i + 1,
            'Invalid character',
            'Single quotes are not valid. Use double quotes (") to enclose strings.',
            CODES.invalidCharacter,
            'apostrophe',
            'Replace the single quotes with double quotes (").',
          );
          i++;
          continue;
        default:
          break;
      }
      if (isDigit(c)) {
        const end = scanNumber(src, i);
        push(T.Number, i, end);
        i = end;
        continue;
      }
      const idLen = scanIdent(src, i);
      if (idLen > 0) {
        push(T.Ident, i, i + idLen);
        i += idLen;
        continue;
      }
      const cp = src.codePointAt(i)!;
      const w = cp > 0xffff ? 2 : 1;
      if (cp === 0xfeff && i === 0) {
        // A byte-order mark at the start of the file is not content.
        i += w;
        continue;
      }
      if (cp === 0x201c || cp === 0x201d) {
        invalid(i, i + w, 'Invalid character', '"Curly quotes" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a "straight quote".', CODES.invalidCharacter, undefined, 'Replace it with a straight double quote (").');
      } else {
        invalid(i, i + w, 'Invalid character', 'This character is not used within the language.', CODES.invalidCharacter, undefined, 'Remove this character.');
      }
      i += w;
      continue;
    }

    if (mode === MODE_STRING) {
      const c = src.charCodeAt(i);
      if (c === 34) {
        push(T.CQuote, i, i + 1);
        i++;
        ret();
        continue;
      }
      if ((c === 36 || c === 37) && src.charCodeAt(i + 1) === 123) {
        const end = src.charCodeAt(i + 2) === 126 ? i + 3 : i + 2;
        beginSequence(c === 36 ? T.TemplateInterp : T.TemplateControl, i, end);
        i = end;
        continue;
      }
      if (c === 10 || c === 13) {
        let j = i;
        while (j < n && (src.charCodeAt(j) === 10 || src.charCodeAt(j) === 13)) j++;
        push(T.QuotedNewline, i, j);
        diagnostics.push(
          diagnosticAt(
            map.range(i, j),
            'error',
            CODES.multiLineString,
            'Invalid multi-line string: Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the "heredoc" multi-line template syntax.',
            'Close the string on the same line, or use a heredoc (<<EOT … EOT) for text spanning several lines.',
          ),
        );
        i = j;
        continue;
      }
      const end = scanQuotedLiteral(src, i);
      if (end > i) {
        push(T.QuotedLit, i, end);
        i = end;
        continue;
      }
      // A backslash before a newline or the end of input: not a valid escape.
      invalid(i, i + 1, 'Invalid character', 'This character is not used within the language.', CODES.invalidCharacter);
      i++;
      continue;
    }

    // MODE_HEREDOC
    const doc = heredocs[heredocs.length - 1]!;
    const c = src.charCodeAt(i);
    if ((c === 36 || c === 37) && src.charCodeAt(i + 1) === 123) {
      const end = src.charCodeAt(i + 2) === 126 ? i + 3 : i + 2;
      beginSequence(c === 36 ? T.TemplateInterp : T.TemplateControl, i, end);
      i = end;
      continue;
    }
    const lit = scanHeredocLiteral(src, i);
    if (lit.eol) {
      if (doc.startOfLine && isMarkerLine(src, i, lit.contentEnd, doc.marker)) {
        push(T.CHeredoc, i, lit.contentEnd);
        push(T.Newline, lit.contentEnd, lit.end);
        heredocs.pop();
        i = lit.end;
        ret();
        continue;
      }
      doc.startOfLine = true;
    } else {
      doc.startOfLine = false;
    }
    push(T.StringLit, i, lit.end);
    i = lit.end;
  }
  tokens.push(T.EOF, n, n);
  return { tokens, diagnostics };
}
