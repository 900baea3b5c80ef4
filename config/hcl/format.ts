// The `format` function: a printf-style formatter with the verbs HCL users rely on (%s %d %q %v
// %f %t %e %g %x %o %b and %%), flags (- + 0 space #), width, precision and `%[n]` argument indexes,
// following cty's format rules (collections under %v render as JSON).

import { numberToString, toNumberValue, toStringValue, typeName } from './convert.js';
import { FunctionError, isUnknown, type Value } from './value.js';
import { toJsonText } from './stdlib-json.js';

interface Spec {
  minus: boolean;
  plus: boolean;
  zero: boolean;
  space: boolean;
  sharp: boolean;
  width?: number;
  precision?: number;
}

export function formatString(spec: string, args: Value[]): string {
  let out = '';
  let argi = 0;
  let i = 0;
  const n = spec.length;
  while (i < n) {
    const pct = spec.indexOf('%', i);
    if (pct < 0) {
      out += spec.slice(i);
      break;
    }
    out += spec.slice(i, pct);
    i = pct + 1;
    if (spec[i] === '%') {
      out += '%';
      i++;
      continue;
    }
    const s: Spec = { minus: false, plus: false, zero: false, space: false, sharp: false };
    for (; i < n; i++) {
      const c = spec[i];
      if (c === '-') s.minus = true;
      else if (c === '+') s.plus = true;
      else if (c === '0') s.zero = true;
      else if (c === ' ') s.space = true;
      else if (c === '#') s.sharp = true;
      else break;
    }
    if (spec[i] === '[') {
      const close = spec.indexOf(']', i);
      const idx = close > 0 ? Number(spec.slice(i + 1, close)) : NaN;
      if (!Number.isInteger(idx) || idx < 1) throw new FunctionError(`invalid argument index in format string at offset ${i}.`, 0);
      argi = idx - 1;
      i = close + 1;
    }
    let w = '';
    while (i < n && spec[i]! >= '0' && spec[i]! <= '9') w += spec[i++];
    if (w) s.width = Number(w);
    if (spec[i] === '.') {
      i++;
      let p = '';
      while (i < n && spec[i]! >= '0' && spec[i]! <= '9') p += spec[i++];
      s.precision = p ? Number(p) : 0;
    }
    const verb = spec[i];
    if (verb === undefined) throw new FunctionError('unterminated format verb at the end of the format string.', 0);
    i++;
    if (argi >= args.length) throw new FunctionError(`too few arguments; no value for %${verb} at offset ${pct}.`, 0);
    const argIndex = argi + 1;
    const v = args[argi++]!;
    out += pad(formatOne(verb, v, s, argIndex), s, verb);
  }
  if (argi < args.length && !/%\[/.test(spec)) {
    throw new FunctionError(`too many arguments; only ${argi} used by format string.`, 0);
  }
  return out;
}

function pad(text: string, s: Spec, verb: string): string {
  if (s.width === undefined) return text;
  const len = [...text].length;
  if (len >= s.width) return text;
  const fill = s.width - len;
  if (s.minus) return text + ' '.repeat(fill);
  const numeric = 'dfeEgGxXob'.includes(verb);
  if (s.zero && numeric) {
    const sign = text[0] === '-' || text[0] === '+' ? text[0] : '';
    return sign + '0'.repeat(fill) + text.slice(sign.length);
  }
  return ' '.repeat(fill) + text;
}

function signed(n: number, body: string, s: Spec): string {
  if (n < 0 || Object.is(n, -0)) return body;
  if (s.plus) return '+' + body;
  if (s.space) return ' ' + body;
  return body;
}

function num(v: Value, verb: string, argIndex: number): number {
  if (v === null) throw new FunctionError(`unsupported value for "%${verb}" at ${argIndex}: null value cannot be formatted.`, argIndex);
  const r = toNumberValue(v);
  if (!r.ok) throw new FunctionError(`unsupported value for "%${verb}" at ${argIndex}: ${r.reason}.`, argIndex);
  return r.value;
}

function formatOne(verb: string, v: Value, s: Spec, argIndex: number): string {
  if (isUnknown(v)) throw new FunctionError('unknown value cannot be formatted.', argIndex);
  switch (verb) {
    case 'v':
      if (v === null) return 'null';
      if (s.sharp || typeof v === 'object') return toJsonText(v);
      return typeof v === 'number' ? numberToString(v) : String(v);
    case 't':
      if (typeof v !== 'boolean' && v !== 'true' && v !== 'false') throw new FunctionError(`unsupported value for "%t" at ${argIndex}: bool required.`, argIndex);
      return String(v === true || v === 'true');
    case 's': {
      if (v === null) throw new FunctionError(`unsupported value for "%s" at ${argIndex}: null value cannot be formatted.`, argIndex);
      const str = toStringValue(v);
      if (!str.ok) throw new FunctionError(`unsupported value for "%s" at ${argIndex}: string required, but have ${typeName(v)}.`, argIndex);
      return s.precision !== undefined ? [...str.value].slice(0, s.precision).join('') : str.value;
    }
    case 'q': {
      if (v === null) throw new FunctionError(`unsupported value for "%q" at ${argIndex}: null value cannot be formatted.`, argIndex);
      const str = toStringValue(v);
      if (!str.ok) throw new FunctionError(`unsupported value for "%q" at ${argIndex}: string required, but have ${typeName(v)}.`, argIndex);
      return JSON.stringify(str.value);
    }
    case 'd': {
      const n = num(v, verb, argIndex);
      if (!Number.isInteger(n)) throw new FunctionError(`unsupported value for "%d" at ${argIndex}: number must be a whole number, not ${numberToString(n)}.`, argIndex);
      return signed(n, numberToString(n), s);
    }
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      if (typeof v === 'string' && (verb === 'x' || verb === 'X') && toNumberValue(v).ok === false) {
        const hex = Buffer.from(v, 'utf8').toString('hex');
        return verb === 'X' ? hex.toUpperCase() : hex;
      }
      const n = num(v, verb, argIndex);
      if (!Number.isInteger(n)) throw new FunctionError(`unsupported value for "%${verb}" at ${argIndex}: number must be a whole number.`, argIndex);
      const base = verb === 'b' ? 2 : verb === 'o' ? 8 : 16;
      let body = Math.abs(n).toString(base);
      if (verb === 'X') body = body.toUpperCase();
      if (s.sharp) body = (verb === 'o' ? '0' : verb === 'b' ? '0b' : verb === 'x' ? '0x' : '0X') + body;
      return signed(n, (n < 0 ? '-' : '') + body, s);
    }
    case 'f':
    case 'F': {
      const n = num(v, verb, argIndex);
      return signed(n, n.toFixed(s.precision ?? 6), s);
    }
    case 'e':
    case 'E': {
      const n = num(v, verb, argIndex);
      let body = n.toExponential(s.precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
      if (verb === 'E') body = body.toUpperCase();
      return signed(n, body, s);
    }
    case 'g':
    case 'G': {
      const n = num(v, verb, argIndex);
      let body = s.precision !== undefined ? String(Number(n.toPrecision(Math.max(1, s.precision)))) : numberToString(n);
      if (verb === 'G') body = body.toUpperCase();
      return signed(n, body, s);
    }
    default:
      throw new FunctionError(`unsupported format verb "%${verb}".`, 0);
  }
}
