// JSON with object keys sorted at every level: equal values give equal text (cassette comparison,
// schema `enum`/`uniqueItems` checks, configuration hashes).

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
      : v,
  );
}
