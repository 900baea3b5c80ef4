// The Porter (1980) suffix-stripping stemmer, so that "invoices", "invoicing" and "invoiced" meet at
// one index term. Deterministic and dictionary-free; it over-stems a little ("organization" →
// "organ"), which costs less in tool search than missing inflections does.

const cache = new Map<string, string>();

export function stem(word: string): string {
  if (word.length <= 2) return word;
  let cached = cache.get(word);
  if (cached === undefined) {
    cached = porter(word);
    // Tool vocabularies are small; the bound only protects against adversarial query streams.
    if (cache.size < 50_000) cache.set(word, cached);
  }
  return cached;
}

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 || !isConsonant(w, i - 1);
  return true;
}

/** m in Porter's [C](VC)^m[V]: the number of vowel-consonant sequences in `w`. */
function measure(w: string): number {
  let m = 0;
  let i = 0;
  const n = w.length;
  while (i < n && isConsonant(w, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(w, i)) i++;
    if (i >= n) break;
    m++;
    while (i < n && isConsonant(w, i)) i++;
  }
  return m;
}

function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3) return false;
  const last = w[n - 1];
  return isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && last !== 'w' && last !== 'x' && last !== 'y';
}

/** Replaces the first matching suffix whose remaining stem satisfies `ok`; at most one rule fires. */
function replaceSuffix(w: string, rules: ReadonlyArray<readonly [string, string]>, ok: (stemPart: string) => boolean): string {
  for (const [suffix, replacement] of rules) {
    if (w.endsWith(suffix)) {
      const base = w.slice(0, w.length - suffix.length);
      return ok(base) ? base + replacement : w;
    }
  }
  return w;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
  ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
  ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];
const STEP4 = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate',
  'iti', 'ous', 'ive', 'ize',
];
// Longest suffixes first so that e.g. "ement" is tried before "ment" and "ent".
const STEP2_SORTED = [...STEP2].sort((a, b) => b[0].length - a[0].length);
const STEP3_SORTED = [...STEP3].sort((a, b) => b[0].length - a[0].length);
const STEP4_SORTED = [...STEP4].sort((a, b) => b.length - a.length);

function porter(input: string): string {
  let w = input;
  // Step 1a: plurals.
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('ss')) {
    // unchanged
  } else if (w.endsWith('s')) w = w.slice(0, -1);

  // Step 1b: -ed and -ing.
  let cleanup = false;
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    cleanup = true;
  } else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3);
    cleanup = true;
  }
  if (cleanup) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
    else if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w) === 1 && endsCvc(w)) w += 'e';
  }

  // Step 1c: y → i after a vowel-containing stem.
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = w.slice(0, -1) + 'i';

  w = replaceSuffix(w, STEP2_SORTED, (base) => measure(base) > 0);
  w = replaceSuffix(w, STEP3_SORTED, (base) => measure(base) > 0);

  // Step 4: drop derivational suffixes on long stems.
  for (const suffix of STEP4_SORTED) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, w.length - suffix.length);
    if (measure(base) > 1 && (suffix !== 'ion' || /[st]$/.test(base))) w = base;
    break;
  }

  // Step 5: final -e and -ll.
  if (w.endsWith('e')) {
    const base = w.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsCvc(base))) w = base;
  }
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}
