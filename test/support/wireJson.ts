// Reading untrusted request JSON in the fake model server's wire modules: a JSON object, a list or
// a string, or an empty one of each when the value is something else.

export type Json = Record<string, unknown>;

export function asJson(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
