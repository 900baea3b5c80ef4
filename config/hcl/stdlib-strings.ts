// String functions of the standard library: upper, lower, trimspace, title, join, split, replace,
// regex, regexall, format, urlencode. Arguments convert as cty's string parameters do (numbers and bools
// become strings).

import { isSpaceCode } from './scanners.js';
import { formatString } from './format.js';
import { regex, regexAll, replaceRe2 } from './stdlib-regex.js';
import { argList, argString, fn } from './stdlib-args.js';
import { toStringValue, typeName } from './convert.js';
import { FunctionError, type HclFunction, type Value } from './value.js';

function trimSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isSpaceCode(s.charCodeAt(a))) a++;
  while (b > a && isSpaceCode(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** Go's strings.Title: upper-case every letter that follows a non-letter. */
function title(s: string): string {
  let out = '';
  let prevLetter = false;
  for (const ch of s) {
    const letter = /[\p{L}\p{N}_']/u.test(ch);
    out += letter && !prevLetter ? ch.toUpperCase() : ch;
    prevLetter = letter;
  }
  return out;
}

/** A `/re/` pattern replaces by regular expression (RE2, as HCL does); anything else is literal text. */
function replace(str: string, substr: string, repl: string): string {
  if (substr.length >= 2 && substr.startsWith('/') && substr.endsWith('/')) return replaceRe2(str, substr.slice(1, -1), repl);
  if (substr === '') return str;
  return str.split(substr).join(repl);
}

export const stringFunctions: Record<string, HclFunction> = {
  upper: fn(1, 1, (a) => argString(a, 0).toUpperCase()),
  // Terraform's urlencode (Go's url.QueryEscape): every byte but letters, digits and -_.~ is
  // percent-encoded as UTF-8, a space becomes +.
  urlencode: fn(1, 1, (a) => encodeURIComponent(argString(a, 0)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+')),
  // Terraform's: the UTF-8 bytes in standard base64 (a Basic auth header: base64encode("u:${vars.p}")).
  base64encode: fn(1, 1, (a) => Buffer.from(argString(a, 0), 'utf8').toString('base64')),
  base64decode: fn(1, 1, (a) => {
    const text = argString(a, 0);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw new FunctionError('the argument is not valid base64.', 0);
    const bytes = Buffer.from(text, 'base64');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new FunctionError('the decoded bytes are not valid UTF-8.', 0);
    }
  }),
  lower: fn(1, 1, (a) => argString(a, 0).toLowerCase()),
  trimspace: fn(1, 1, (a) => trimSpace(argString(a, 0))),
  title: fn(1, 1, (a) => title(argString(a, 0))),
  join: fn(2, undefined, (a) => {
    const sep = argString(a, 0, 'separator');
    const parts: string[] = [];
    for (let i = 1; i < a.length; i++) {
      const list = argList(a, i, 'list');
      list.forEach((item: Value, j) => {
        if (item === null) throw new FunctionError(`element ${j} of the list is null; cannot concatenate null values.`, i);
        const s = toStringValue(item);
        if (!s.ok) throw new FunctionError(`element ${j} of the list must be a string, not ${typeName(item)}.`, i);
        parts.push(s.value);
      });
    }
    return parts.join(sep);
  }),
  split: fn(2, 2, (a) => {
    const sep = argString(a, 0, 'separator');
    const str = argString(a, 1, 'string');
    if (str === '') return [''];
    return sep === '' ? Array.from(str) : str.split(sep);
  }),
  replace: fn(3, 3, (a) => replace(argString(a, 0), argString(a, 1), argString(a, 2))),
  regex: fn(2, 2, (a) => regex(argString(a, 0, 'pattern'), argString(a, 1, 'string'))),
  regexall: fn(2, 2, (a) => regexAll(argString(a, 0, 'pattern'), argString(a, 1, 'string'))),
  format: fn(1, undefined, (a) => formatString(argString(a, 0, 'format'), a.slice(1))),
};
