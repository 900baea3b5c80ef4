// The large results of test/support/mcpBigServer.mjs, generated deterministically so tests and the
// bench can predict them: a JSON document of about 1 MB, a log of about 1 MB, a text holding a secret.

/** A 1×1 transparent PNG. */
export const BIG_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export const BIG_JSON_ITEMS = 4100;
export const BIG_TEXT_LINES = 13000;
/** The one log line that holds the needle (1-based). */
export const NEEDLE_LINE = 7777;

/** `{ total, items: [{ id, name, email, tags, notes }] }`, about 1 MB as JSON. */
export function bigJson() {
  const items = [];
  for (let id = 0; id < BIG_JSON_ITEMS; id++) {
    items.push({ id, name: `user-${id}`, email: `user-${id}@example.com`, tags: ['alpha', id % 2 === 0 ? 'even' : 'odd'], notes: `Customer ${id} `.padEnd(150, 'x') });
  }
  return { total: BIG_JSON_ITEMS, source: 'crm', items };
}

export function logLine(n) {
  const needle = n === NEEDLE_LINE ? ' NEEDLE-4242' : '';
  return `2026-12-01T00:00:00Z line ${String(n).padStart(6, '0')} status=ok latency=${n % 97}ms path=/api/v1/items/${n}${needle}`;
}

/** BIG_TEXT_LINES log lines, about 1 MB. */
export function bigText() {
  const lines = [];
  for (let n = 1; n <= BIG_TEXT_LINES; n++) lines.push(logLine(n));
  return `${lines.join('\n')}\n`;
}

/** About 100 KB of text with the secret near the start and in the middle. */
export function secretText(secret) {
  const filler = 'filler line without anything of interest\n'.repeat(1200);
  return `token=${secret}\n${filler}again token=${secret}\n${filler}`;
}
