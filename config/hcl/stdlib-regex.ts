// The regular-expression functions of HCL's standard library — regex, regexall, and replace with a
// `/…/` pattern — with the semantics HCL defines them by: Go's regexp package (RE2 syntax,
// leftmost-first matches, Go's rules for successive empty matches and for `$1`/`${name}` in a
// replacement). re2js is a port of that engine: matching is linear in the input, so no pattern a
// config (or a value read at run time) supplies can hang the process the way a backtracking
// RegExp can on `(a+)+$`. The engine is loaded on the first regex call (synchronously, as function
// calls are): most configs call none, and loading it cost every `validate` and `fmt`.

import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { setKey } from './convert.js';
import { FunctionError, type ObjectValue, type Value } from './value.js';

let engine: typeof RE2JS | undefined;

/** The RE2 engine, loaded on first use: the one instance every regex of the process compiles with. */
export function re2(): typeof RE2JS {
  engine ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS;
  return engine;
}

/** Compiles `pattern` (argument `argIndex`), turning a syntax error into a FunctionError. */
export function compileRe2(pattern: string, argIndex: number): RE2JS {
  try {
    return re2().compile(pattern);
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
    throw new FunctionError(`invalid regular expression: ${reason}.`, argIndex);
  }
}

/** Start and end of the whole match and of each group (-1 when the group took no part). */
type Span = number[];

/**
 * Every match, as Go's FindAllStringSubmatchIndex finds them: each search starts where the last
 * match ended, an empty match right after a match is skipped, and after an empty match the search
 * moves on by one character (a surrogate pair counts as one).
 */
function allMatches(re: RE2JS, s: string, limit = Infinity): Span[] {
  const m = re.matcher(s);
  const groups = m.groupCount();
  const out: Span[] = [];
  let pos = 0;
  let prevEnd = -1;
  while (pos <= s.length && out.length < limit) {
    if (!m.find(pos)) break;
    const span: Span = [];
    for (let g = 0; g <= groups; g++) span.push(m.start(g), m.end(g));
    const [start, end] = [span[0]!, span[1]!];
    let accept = true;
    if (end === pos) {
      if (start === prevEnd) accept = false;
      pos += charWidth(s, pos);
    } else {
      pos = end;
    }
    prevEnd = end;
    if (accept) out.push(span);
  }
  return out;
}

function charWidth(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/** What regex returns for one match: the matched text, a list of groups, or an object of named groups. */
type ResultShape = { kind: 'whole' } | { kind: 'list'; count: number } | { kind: 'named'; names: string[] };

function resultShape(re: RE2JS): ResultShape {
  const count = re.groupCount();
  if (count === 0) return { kind: 'whole' };
  const named = re.namedGroups() as Record<string, number>;
  const byIndex = new Map<number, string>();
  for (const [name, i] of Object.entries(named)) byIndex.set(i, name);
  if (byIndex.size === 0) return { kind: 'list', count };
  if (byIndex.size !== count) throw new FunctionError('invalid regular expression: cannot mix both named and unnamed capture groups.', 0);
  return { kind: 'named', names: Array.from({ length: count }, (_, i) => byIndex.get(i + 1)!) };
}

function resultOf(shape: ResultShape, s: string, span: Span): Value {
  const group = (g: number): string | null => (span[2 * g]! < 0 ? null : s.slice(span[2 * g], span[2 * g + 1]));
  switch (shape.kind) {
    case 'whole':
      return group(0);
    case 'list':
      return Array.from({ length: shape.count }, (_, i) => group(i + 1));
    case 'named': {
      const out: ObjectValue = {};
      shape.names.forEach((name, i) => setKey(out, name, group(i + 1)));
      return out;
    }
  }
}

/** regex(pattern, string): the first match; an error when there is none. */
export function regex(pattern: string, s: string): Value {
  const re = compileRe2(pattern, 0);
  const shape = resultShape(re);
  const first = allMatches(re, s, 1)[0];
  if (first === undefined) throw new FunctionError('pattern did not match any part of the given string.', 1);
  return resultOf(shape, s, first);
}

/** regexall(pattern, string): every non-overlapping match, possibly none. */
export function regexAll(pattern: string, s: string): Value[] {
  const re = compileRe2(pattern, 0);
  const shape = resultShape(re);
  return allMatches(re, s).map((span) => resultOf(shape, s, span));
}

/**
 * replace(string, "/re/", replacement): Go's Regexp.ReplaceAllString. Matches come from the same
 * search as regexall (an empty match right after a match is not replaced), and the replacement
 * expands `$n`, `${n}`, `$name`, `${name}` (the longest run of letters, digits and `_`: `$1x` is
 * the group named `1x`, which does not exist, so it is empty) and `$$`.
 */
export function replaceRe2(s: string, pattern: string, replacement: string): string {
  const re = compileRe2(pattern, 1);
  const names = new Map<string, number>(Object.entries(re.namedGroups() as Record<string, number>));
  let out = '';
  let last = 0;
  for (const span of allMatches(re, s)) {
    out += s.slice(last, span[0]) + expand(replacement, s, span, names);
    last = span[1]!;
  }
  return out + s.slice(last);
}

const NAME_CHAR = /[\p{L}\p{Nd}_]/u;

function expand(template: string, s: string, span: Span, names: ReadonlyMap<string, number>): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf('$', i);
    if (dollar < 0) break;
    out += template.slice(i, dollar);
    i = dollar + 1;
    if (template[i] === '$') {
      out += '$';
      i++;
      continue;
    }
    const ref = groupRef(template, i);
    if (ref === undefined) {
      out += '$'; // malformed: the dollar is kept as text
      continue;
    }
    i = ref.next;
    const g = /^\d+$/.test(ref.name) && !(ref.name.length > 1 && ref.name.startsWith('0')) ? Number(ref.name) : names.get(ref.name);
    if (g !== undefined && 2 * g + 1 < span.length && span[2 * g]! >= 0) out += s.slice(span[2 * g], span[2 * g + 1]);
  }
  return out + template.slice(i);
}

/** The group name after a `$` at `at` (`name` or `{name}`), as Go's regexp extract reads it. */
function groupRef(t: string, at: number): { name: string; next: number } | undefined {
  const brace = t[at] === '{';
  let i = brace ? at + 1 : at;
  const start = i;
  while (i < t.length) {
    const ch = String.fromCodePoint(t.codePointAt(i)!);
    if (!NAME_CHAR.test(ch)) break;
    i += ch.length;
  }
  if (i === start) return undefined;
  const name = t.slice(start, i);
  if (brace) {
    if (t[i] !== '}') return undefined;
    i++;
  }
  return { name, next: i };
}
