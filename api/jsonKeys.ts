// snake_case keys for the JSON documents the CLI prints and the server answers (one rule for both).

/** `maxParallel` → `max_parallel`. */
export function snakeCase(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Keys whose values are user or model data, reproduced verbatim in every document: a task's `output`,
 * a tool call's `input`, a run's `inputs`, an MCP tool's `structured` content, a tool's `input_schema`.
 */
export const VERBATIM_KEYS: ReadonlySet<string> = new Set(['output', 'input', 'inputs', 'structured', 'input_schema']);

/**
 * A copy of `value` with every object key squadron chose in snake_case; the values of VERBATIM_KEYS
 * (user data: task outputs, tool inputs, JSON schemas) keep their own keys.
 */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const key = snakeCase(k);
      return [key, VERBATIM_KEYS.has(key) ? v : snakeKeys(v)];
    }),
  );
}
