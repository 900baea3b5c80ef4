// JSON Schema `pattern` (and `patternProperties`) in bounded time. The spec gives patterns ECMA-262
// semantics, but a tool's schema may come from an untrusted MCP server, and a backtracking RegExp
// on `(a+)+$` or `(?=.*x)` can block the process for hours. So a pattern is translated into an RE2
// pattern with the same meaning and run by re2js, whose matching is linear in the input. Only
// patterns that are valid ECMA-262 in Unicode mode and contain just the constructs both engines
// share are translated; the few constructs whose meaning differs are rewritten (`.`, `\s`, `\S`,
// `\uXXXX`, `[]`, `[^]`). A pattern outside that common ground (lookaround, backreferences, `\cX`,
// legacy non-Unicode syntax) is not checked here at all: the tool's own server still validates
// its input, and a check we cannot bound is worse than none.

import { re2 } from '../../config/hcl/stdlib-regex.js';

/** Tests a string against a compiled pattern (unanchored, as JSON Schema's `pattern` is). */
export type PatternTest = (s: string) => boolean;

/** ECMA-262's WhiteSpace and LineTerminator code points, which `\s` matches (RE2's `\s` is ASCII only). */
const ECMA_SPACE = '\\t\\n\\x{b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** What ECMA-262's `.` matches without the s flag: anything but a line terminator. */
const ECMA_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

const cache = new Map<string, PatternTest | null>();
/** Schemas repeat a few patterns; a server sending endless distinct ones must not grow memory. */
const CACHE_LIMIT = 500;

/** The test for `pattern`, or undefined when it cannot be checked in bounded time (then it is not checked). */
export function compileSchemaPattern(pattern: string): PatternTest | undefined {
  let test = cache.get(pattern);
  if (test === undefined) {
    test = compile(pattern);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pattern, test);
  }
  return test ?? undefined;
}

function compile(pattern: string): PatternTest | null {
  try {
    new RegExp(pattern, 'u'); // valid ECMA-262 in Unicode mode: strict syntax, code-point semantics
  } catch {
    return null;
  }
  const translated = toRe2(pattern);
  if (translated === undefined) return null;
  try {
    const re = re2().compile(translated);
    return (s) => re.test(s);
  } catch {
    return null; // RE2 lacks the construct (lookaround, backreference, a Unicode property it does not know)
  }
}

/** The RE2 spelling of an ECMA-262 (Unicode mode) pattern, or undefined when the meanings could differ. */
export function toRe2(p: string): string | undefined {
  let out = '';
  let inClass = false;
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '\\') {
      const esc = escape(p, i, inClass);
      if (esc === undefined) return undefined;
      out += esc.text;
      i = esc.next;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      else if (c === '[' && ':=.'.includes(p[i + 1] ?? '')) return undefined; // RE2 reads [:alpha:] as a POSIX class
      out += c;
      i++;
      continue;
    }
    if (c === '[') {
      const negated = p[i + 1] === '^';
      const first = i + (negated ? 2 : 1);
      if (p[first] === ']') {
        // ECMA's empty class matches nothing, [^] anything; RE2 would read the ] as a member.
        out += negated ? '[\\x{0}-\\x{10ffff}]' : '[^\\x{0}-\\x{10ffff}]';
        i = first + 1;
        continue;
      }
      inClass = true;
      out += negated ? '[^' : '[';
      i = first;
      continue;
    }
    out += c === '.' ? ECMA_DOT : c;
    i++;
  }
  return out;
}

function escape(p: string, at: number, inClass: boolean): { text: string; next: number } | undefined {
  const c = p[at + 1];
  if (c === undefined) return undefined;
  switch (c) {
    case 's':
      return { text: inClass ? ECMA_SPACE : `[${ECMA_SPACE}]`, next: at + 2 };
    case 'S':
      return inClass ? undefined : { text: `[^${ECMA_SPACE}]`, next: at + 2 };
    case 'b':
      return { text: inClass ? '\\x{8}' : '\\b', next: at + 2 };
    case 'c':
    case 'k':
      return undefined;
    case 'u': {
      const cp = unicodeEscape(p, at);
      return cp === undefined ? undefined : { text: `\\x{${cp.value.toString(16)}}`, next: cp.next };
    }
    case '0':
      return { text: '\\x{0}', next: at + 2 };
    default:
      if (c >= '1' && c <= '9') return undefined; // a backreference
      return { text: `\\${c}`, next: at + 2 };
  }
}

/** `\uXXXX` (a surrogate pair of two of them is one code point in Unicode mode) or `\u{X…}`. */
function unicodeEscape(p: string, at: number): { value: number; next: number } | undefined {
  if (p[at + 2] === '{') {
    const close = p.indexOf('}', at + 3);
    if (close < 0) return undefined;
    return { value: parseInt(p.slice(at + 3, close), 16), next: close + 1 };
  }
  const hex = (from: number): number | undefined => (/^[0-9a-fA-F]{4}$/.test(p.slice(from, from + 4)) ? parseInt(p.slice(from, from + 4), 16) : undefined);
  const hi = hex(at + 2);
  if (hi === undefined) return undefined;
  if (hi >= 0xd800 && hi <= 0xdbff && p.startsWith('\\u', at + 6)) {
    const lo = hex(at + 8);
    if (lo !== undefined && lo >= 0xdc00 && lo <= 0xdfff) return { value: 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00), next: at + 12 };
  }
  if (hi >= 0xd800 && hi <= 0xdfff) return undefined; // a lone surrogate: RE2 has no such character
  return { value: hi, next: at + 6 };
}
