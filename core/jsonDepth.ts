// JSON depth is bounded where JSON enters (a model's tool-call arguments, an MCP server's results,
// `-i` values): every walker after that (schema validation, redaction, canonical JSON, the store's
// serialisation) recurses, and a value nested 100,000 levels would overflow the stack and end the
// whole process. This check itself does not recurse.

/** Deeper values are refused where they enter: far beyond any real tool input, far below the stack's limit. */
export const MAX_JSON_DEPTH = 100;

/** True when `value` nests arrays and objects more than `max` levels deep. */
export function jsonTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** The nesting depth of JSON text by its brackets (outside strings), without parsing it. */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

export function tooDeepMessage(what: string, max = MAX_JSON_DEPTH): string {
  return `${what} nests arrays and objects more than ${max} levels deep, which is refused`;
}
