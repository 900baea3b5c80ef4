// Secret redaction for everything that leaves the runtime (the store, logs, cassettes, the terminal).
// Secret values become `[REDACTED:<name>]` (e.g. `[REDACTED:vars.api_key]`) on the way out and are
// put back from the *current* values on the way in, so a resumed run works with rotated secrets and
// the database never holds one. Structured data is redacted value by value before it is serialised
// (redactValue); the text forms below are for plain text and text that already holds JSON.

// Shorter values are refused (the loader's SCH018): one definition, beside the config's list of secrets.
import { MIN_SECRET_LENGTH } from '../core/secrets.js';

export { MIN_SECRET_LENGTH };

export interface Redactor {
  /** Reversible: secrets become placeholders and a literal placeholder is escaped (see restore). */
  redact(text: string): string;
  restore(text: string): string;
  /** A JSON-shaped value with every string and object key redacted (before it is serialised). */
  redactValue<T>(value: T): T;
  restoreValue<T>(value: T): T;
  /** Parses JSON text written from a redacted value and restores it (= restoreValue(JSON.parse(text))). */
  restoreJson(text: string): unknown;
  /** One-way, for what people read (the terminal): secrets become placeholders, nothing else changes. */
  mask(text: string): string;
}

export interface SecretValue {
  /** How the user refers to the secret, used verbatim in the placeholder: `vars.api_key`. */
  name: string;
  value: string;
}

/** A secret value the redactor refuses (too short to be redacted safely). */
export class SecretValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretValueError';
  }
}

/** Every placeholder (and every escaped literal one) starts so: stored text without it restores as it is. */
export const PLACEHOLDER_START = '[REDACTED:';
/** A literal `[REDACTED:` already in the text is escaped to this so restore never invents a secret. */
const ESCAPED_START = '[REDACTED::';
/**
 * How many levels of JSON string escaping are recognised in text: level 1 is a secret inside a JSON
 * string (`p\"w`), level 2 inside JSON text that is itself a JSON string (a tool result holding
 * JSON, printed by `--json`), and so on.
 */
const MAX_ESCAPE_LEVEL = 3;

// Matches, left to right: an escaped literal, or a placeholder with an optional escape-level marker
// (`:json` is level 1, `:json2` level 2, …).
const RESTORE_PATTERN = /\[REDACTED:(?::|([^\]\s:]+)(:json([2-9])?|:url|:path|:form|:b64|:b64url|:b64at[0-2]|:b64urlat[0-2])?\])/g;

/**
 * The encoded forms a secret travels in besides JSON: percent-encoded in a URL (path or query, and
 * form encoding with `+` for a space) and base64 (standard and URL-safe, as a header or a token
 * carries it). Each has its marker, so restore writes back the same form of the current value.
 */
const WHOLE_ENCODINGS: readonly (readonly [marker: string, encode: (value: string) => string])[] = [
  [':url', (v) => encodeURIComponent(v)],
  // As a URL writes it in a path (WHATWG's path percent-encode set): `:` `@` `&` `=` `+` `$` `,` `;`
  // `!` `'` `(` `)` `*` `[` `]` `|` stay as they are, which encodeURIComponent would encode.
  [':path', (v) => pathEncode(v)],
  [':form', (v) => new URLSearchParams([['', v]]).toString().slice(1)],
  [':b64', (v) => Buffer.from(v, 'utf8').toString('base64')],
  // Unpadded, as JWTs and URL tokens write it.
  [':b64url', (v) => Buffer.from(v, 'utf8').toString('base64url')],
];
/**
 * A secret base64-encoded inside a longer value (`Basic base64("user:<secret>")`, a token that
 * carries it): its encoding depends on where it starts modulo 3 bytes, so for each of the three
 * starts the characters that depend on the secret alone (not on its neighbours) are a form too.
 */
function base64Within(value: string, at: number, url: boolean): string {
  const bytes = Buffer.concat([Buffer.alloc(at), Buffer.from(value, 'utf8')]);
  const text = bytes.toString(url ? 'base64url' : 'base64').replace(/=+$/, '');
  const from = at === 0 ? 0 : 4;
  const to = bytes.length % 3 === 0 ? text.length : Math.floor(bytes.length / 3) * 4;
  return to - from >= 8 ? text.slice(from, to) : '';
}
const ENCODINGS: readonly (readonly [marker: string, encode: (value: string) => string])[] = [
  ...WHOLE_ENCODINGS,
  ...[0, 1, 2].flatMap((at) => [[`:b64at${at}`, (v: string) => base64Within(v, at, false)] as const, [`:b64urlat${at}`, (v: string) => base64Within(v, at, true)] as const]),
];
const ENCODE_BY_MARKER = new Map(ENCODINGS);
const NAME_PATTERN = /^[^\]\s:]+$/;

export const identityRedactor: Redactor = {
  redact: (text) => text,
  restore: (text) => text,
  redactValue: (value) => value,
  restoreValue: (value) => value,
  restoreJson: (text) => JSON.parse(text) as unknown,
  mask: (text) => text,
};

/**
 * Redacts each secret's raw value and its JSON-escaped forms up to MAX_ESCAPE_LEVEL (as
 * `JSON.stringify` writes them, and the ASCII-only forms other encoders write), longest first in a
 * single pass so a placeholder is never re-scanned. Escaped forms get a level marker so `restore`
 * writes back the `JSON.stringify` form of that level (equal, as JSON, to whichever escaping was
 * there) and the surrounding JSON stays valid.
 */
export function createSecretRedactor(secrets: readonly SecretValue[]): Redactor {
  for (const { name, value } of secrets) {
    // A name the restore pattern cannot read back would leave placeholders unrestorable forever.
    if (!NAME_PATTERN.test(name)) throw new Error(`secret name ${JSON.stringify(name)} cannot be used in a placeholder`);
    if (value.length > 0 && value.length < MIN_SECRET_LENGTH) throw new SecretValueError(tooShortMessage(name));
  }
  const usable = secrets.filter((s) => s.value.length > 0);
  if (usable.length === 0) return escapingOnlyRedactor();

  const replacements = new Map<string, string>();
  replacements.set(PLACEHOLDER_START, ESCAPED_START);
  const byName = new Map<string, string>();
  for (const { name, value } of usable) {
    if (!byName.has(name)) byName.set(name, value);
    addOnce(replacements, value, `[REDACTED:${name}]`);
    for (const [marker, encode] of ENCODINGS) {
      const form = encode(value);
      if (form.length > 0) addOnce(replacements, form, `[REDACTED:${name}${marker}]`);
    }
    let forms = [value];
    for (let level = 1; level <= MAX_ESCAPE_LEVEL; level++) {
      forms = [...new Set(forms.flatMap((f) => [jsonEscape(f), asciiJsonEscape(f)]))];
      for (const form of forms) addOnce(replacements, form, `[REDACTED:${name}:json${level === 1 ? '' : level}]`);
    }
  }
  // On display every form reads as the plain placeholder: the escape level matters only to restore.
  const shown = new Map([...replacements].map(([needle, placeholder]) => [needle, needle === PLACEHOLDER_START ? needle : placeholder.replace(/:[a-z0-9]+\]$/, ']')]));
  const needles = [...replacements.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(needles.map(escapeRegExp).join('|'), 'g');

  const redact = (text: string): string => (text.length < MIN_SECRET_LENGTH ? text : text.replace(pattern, (m) => replacements.get(m) ?? m));
  const restore = (text: string): string => {
    if (!text.includes(PLACEHOLDER_START)) return text;
    return text.replace(RESTORE_PATTERN, (m, name: string | undefined, json: string | undefined, level: string | undefined) => {
      if (name === undefined) return PLACEHOLDER_START;
      const value = byName.get(name);
      // A secret that is no longer supplied stays a placeholder: better than guessing.
      if (value === undefined) return m;
      if (json === undefined) return value;
      const encode = ENCODE_BY_MARKER.get(json);
      if (encode !== undefined) return encode(value);
      return escapeTimes(value, level === undefined ? 1 : Number(level));
    });
  };
  return {
    redact,
    restore,
    redactValue: (value) => mapStrings(value, redact),
    restoreValue: (value) => mapStrings(value, restore),
    restoreJson: (text) => restoreJson(text, restore),
    mask: (text) => (text.length < MIN_SECRET_LENGTH ? text : text.replace(pattern, (m) => shown.get(m) ?? m)),
  };
}

export function tooShortMessage(name: string): string {
  return `the secret ${name} is shorter than ${MIN_SECRET_LENGTH} characters: it cannot be redacted without shredding ordinary text, so it is refused; use a longer value`;
}

/** With no secrets there is nothing to hide, but literal placeholders must still round-trip. */
function escapingOnlyRedactor(): Redactor {
  const redact = (text: string): string => (text.includes(PLACEHOLDER_START) ? text.replaceAll(PLACEHOLDER_START, ESCAPED_START) : text);
  const restore = (text: string): string =>
    text.includes(PLACEHOLDER_START) ? text.replace(RESTORE_PATTERN, (m, name: string | undefined) => (name === undefined ? PLACEHOLDER_START : m)) : text;
  return {
    redact,
    restore,
    redactValue: (value) => mapStrings(value, redact),
    restoreValue: (value) => mapStrings(value, restore),
    restoreJson: (text) => restoreJson(text, restore),
    mask: (text) => text,
  };
}

/**
 * Restoring changes only strings holding `[REDACTED:`. JSON text can spell that only literally or
 * with a \u escape (JSON.stringify writes none for these characters), so text with neither is parsed
 * without walking every string of the document: reading back a long conversation costs a parse.
 */
function restoreJson(text: string, restore: (s: string) => string): unknown {
  const value = JSON.parse(text) as unknown;
  return text.includes(PLACEHOLDER_START) || text.includes('\\u') ? mapStrings(value, restore) : value;
}

/**
 * A JSON-shaped value with `f` applied to every string and object key. Only what `f` changes is
 * copied (with the arrays and objects holding it): a value without secrets, the usual case for every
 * row and log line, comes back as it is, without a copy of each of its objects to collect.
 */
function mapStrings<T>(value: T, f: (s: string) => string): T {
  return mapAny(value, f) as T;
}

function mapAny(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const mapped = mapAny(item, f);
      if (copy === undefined && mapped !== item) copy = value.slice(0, i);
      copy?.push(mapped);
    }
    return copy ?? value;
  }
  const withToJson = value as { toJSON?: () => unknown };
  // Mirror JSON.stringify, which serialises Dates and similar through toJSON.
  if (typeof withToJson.toJSON === 'function') return mapAny(withToJson.toJSON(), f);
  // An Error's message and stack are not enumerable: JSON.stringify would drop them, a logger keeps them.
  if (value instanceof Error) {
    const out: Record<string, unknown> = { type: value.name, message: f(value.message) };
    if (value.stack !== undefined) out['stack'] = f(value.stack);
    return Object.assign(out, mapAny({ ...value }, f));
  }
  const entries = Object.entries(value);
  // Only a plain object may come back as it is: anything else is copied as JSON.stringify reads it.
  const proto = Object.getPrototypeOf(value) as unknown;
  let out: Record<string, unknown> | undefined = proto === Object.prototype || proto === null ? undefined : {};
  for (let i = 0; i < entries.length; i++) {
    const [key, item] = entries[i]!;
    const mapped = mapAny(item, f);
    const k = f(key);
    if (out === undefined && (mapped !== item || k !== key)) {
      out = {};
      for (let j = 0; j < i; j++) setKey(out, entries[j]![0], entries[j]![1]);
    }
    if (out !== undefined) setKey(out, k, mapped);
  }
  return out ?? value;
}

function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment of "__proto__" would change the prototype instead of adding a key.
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

function addOnce(map: Map<string, string>, needle: string, replacement: string): void {
  if (!map.has(needle)) map.set(needle, replacement);
}

function escapeTimes(value: string, level: number): string {
  let out = value;
  for (let i = 0; i < level; i++) out = jsonEscape(out);
  return out;
}

function jsonEscape(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

function asciiJsonEscape(value: string): string {
  return jsonEscape(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Percent-encodes (UTF-8) controls, space, non-ASCII and `"#<>?^\`{}`, as a URL writes a path. */
function pathEncode(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code > 0x20 && code < 0x7f && !PATH_ENCODED.has(ch)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
const PATH_ENCODED: ReadonlySet<string> = new Set(['"', '#', '<', '>', '?', '^', '`', '{', '}']);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
