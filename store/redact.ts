// Secret redaction for everything that leaves the runtime (the store, logs, cassettes). Secret values
// become `[REDACTED:<name>]` (e.g. `[REDACTED:vars.api_key]`) on the way out and are put back from the
// *current* values on the way in, so a resumed run works with rotated secrets and the database never
// holds one.

export interface Redactor {
  redact(text: string): string;
  restore(text: string): string;
}

export interface SecretValue {
  /** How the user refers to the secret, used verbatim in the placeholder: `vars.api_key`. */
  name: string;
  value: string;
}

/** Values shorter than this are not redacted: they would shred ordinary text ("abc" in every word). */
export const MIN_SECRET_LENGTH = 4;

const PLACEHOLDER_START = '[REDACTED:';
/** A literal `[REDACTED:` already in the text is escaped to this so restore never invents a secret. */
const ESCAPED_START = '[REDACTED::';
const JSON_MARK = ':json';

// Matches, left to right: an escaped literal, or a placeholder with an optional JSON marker.
const RESTORE_PATTERN = /\[REDACTED:(?::|([^\]\s:]+)(:json)?\])/g;
const NAME_PATTERN = /^[^\]\s:]+$/;

export const identityRedactor: Redactor = {
  redact: (text) => text,
  restore: (text) => text,
};

/**
 * Redacts each secret's raw value and its JSON-escaped forms (as `JSON.stringify` writes it, and the
 * ASCII-only form other encoders write), longest first in a single pass so a placeholder is never
 * re-scanned. Escaped forms get a `:json` marker so `restore` writes back the `JSON.stringify` form
 * (equal, as JSON, to whichever escaping was there) and the surrounding JSON stays valid.
 */
export function createSecretRedactor(secrets: readonly SecretValue[]): Redactor {
  for (const { name } of secrets) {
    // A name the restore pattern cannot read back would leave placeholders unrestorable forever.
    if (!NAME_PATTERN.test(name)) throw new Error(`secret name ${JSON.stringify(name)} cannot be used in a placeholder`);
  }
  const usable = secrets.filter((s) => s.value.length >= MIN_SECRET_LENGTH);
  if (usable.length === 0) return escapingOnlyRedactor();

  const replacements = new Map<string, string>();
  replacements.set(PLACEHOLDER_START, ESCAPED_START);
  const rawByName = new Map<string, string>();
  const jsonByName = new Map<string, string>();
  for (const { name, value } of usable) {
    if (!rawByName.has(name)) {
      rawByName.set(name, value);
      jsonByName.set(name, jsonEscape(value));
    }
    const placeholder = `[REDACTED:${name}]`;
    const jsonPlaceholder = `[REDACTED:${name}${JSON_MARK}]`;
    addOnce(replacements, value, placeholder);
    for (const form of [jsonEscape(value), asciiJsonEscape(value)]) {
      if (form !== value) addOnce(replacements, form, jsonPlaceholder);
    }
  }
  const needles = [...replacements.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(needles.map(escapeRegExp).join('|'), 'g');

  return {
    redact(text) {
      if (text.length < MIN_SECRET_LENGTH) return text;
      return text.replace(pattern, (m) => replacements.get(m) ?? m);
    },
    restore(text) {
      if (!text.includes(PLACEHOLDER_START)) return text;
      return text.replace(RESTORE_PATTERN, (m, name: string | undefined, json: string | undefined) => {
        if (name === undefined) return PLACEHOLDER_START;
        const value = json === undefined ? rawByName.get(name) : jsonByName.get(name);
        // A secret that is no longer supplied stays a placeholder: better than guessing.
        return value ?? m;
      });
    },
  };
}

/** With no secrets there is nothing to hide, but literal placeholders must still round-trip. */
function escapingOnlyRedactor(): Redactor {
  return {
    redact: (text) => (text.includes(PLACEHOLDER_START) ? text.replaceAll(PLACEHOLDER_START, ESCAPED_START) : text),
    restore: (text) =>
      text.includes(PLACEHOLDER_START) ? text.replace(RESTORE_PATTERN, (m, name: string | undefined) => (name === undefined ? PLACEHOLDER_START : m)) : text,
  };
}

function addOnce(map: Map<string, string>, needle: string, replacement: string): void {
  if (!map.has(needle)) map.set(needle, replacement);
}

function jsonEscape(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

function asciiJsonEscape(value: string): string {
  return jsonEscape(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
