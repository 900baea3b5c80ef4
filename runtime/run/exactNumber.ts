// Whether a decimal number written as text survives conversion to a JavaScript number: a value
// whose digits a float64 cannot hold (99999999999999999999999 becomes 99999999999999991611392,
// 1e-400 becomes 0) must not silently become a different value. Text and number are compared as
// decimals (digits without surrounding zeros, and a power of ten), so 0.1, 1.50 and 1e3 pass.

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** `digits × 10^exponent` with no leading or trailing zeros in digits ("0" for zero). */
function canonical(text: string): string | undefined {
  const m = DECIMAL.exec(text.trim());
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const whole = m[2]!;
  const fraction = m[3] ?? '';
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let exponent = Number(m[4] ?? '0') - fraction.length;
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  return `${m[1] === '-' ? '-' : ''}${digits}e${exponent}`;
}

/** Whether `text` is a plain decimal number (`12`, `-1.5`, `2e3`; not `0x10`). */
export function isDecimalText(text: string): boolean {
  return canonical(text) !== undefined;
}

/** True when `text` is a decimal number that `n` (its conversion) represents exactly. */
export function isExactNumber(text: string, n: number): boolean {
  const given = canonical(text);
  return given !== undefined && given === canonical(String(n));
}

/**
 * The first number literal in a JSON text that a float64 cannot hold exactly, if any (JSON.parse
 * rounds such numbers silently). Strings are skipped; the text is assumed to be valid JSON.
 */
export function firstInexactJsonNumber(json: string): string | undefined {
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  for (const m of json.matchAll(token)) {
    const t = m[0];
    if (t.startsWith('"')) continue;
    if (!isExactNumber(t, Number(t))) return t;
  }
  return undefined;
}
