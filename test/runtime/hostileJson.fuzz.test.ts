// Random deep and huge JSON fed to every place JSON enters: a model's tool-call arguments (as text
// from a stream, as a value an SDK parsed), an MCP server's result, an -i value. None may throw or
// overflow the stack; each refuses exactly what nests deeper than MAX_JSON_DEPTH, and what it
// accepts survives the walkers after it (schema validation, redaction).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mission } from '../../config/graph.js';
import { MAX_JSON_DEPTH } from '../../core/jsonDepth.js';
import { resolveInputs } from '../../runtime/run/inputs.js';
import { boundToolInput, malformedReason, parseToolInput } from '../../runtime/providers/toolInput.js';
import { validateToolInput } from '../../runtime/tools/inputValidation.js';
import { toToolResult } from '../../runtime/tools/mcp/results.js';
import { createSecretRedactor } from '../../store/redact.js';

interface Deep {
  depth: number;
  text: string;
  outer: 'array' | 'object';
}

/** JSON text nesting `depth` containers (arrays and objects in the given cycle) around a leaf, built without recursion. */
function nested(depth: number, kinds: readonly ('array' | 'object')[], leaf: unknown, width: number): Deep {
  const open: string[] = [];
  const close: string[] = [];
  const pad = width > 0 ? `${Array.from({ length: width }, (_, i) => JSON.stringify(`w${i}`)).join(',')},` : '';
  for (let i = 0; i < depth; i++) {
    const kind = kinds[i % kinds.length]!;
    open.push(kind === 'array' ? `[${i === 0 ? pad : ''}` : `{"k${i}":`);
    close.push(kind === 'array' ? ']' : '}');
  }
  const text = `${open.join('')}${JSON.stringify(leaf)}${close.reverse().join('')}`;
  return { depth, text, outer: kinds[0]! };
}

const deepJson = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 1, max: MAX_JSON_DEPTH + 5 }), fc.integer({ min: MAX_JSON_DEPTH - 5, max: 120_000 })),
    kinds: fc.array(fc.constantFrom('array' as const, 'object' as const), { minLength: 1, maxLength: 4 }),
    leaf: fc.jsonValue({ maxDepth: 2 }),
    // Huge in breadth too: thousands of siblings beside the first level.
    width: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3_000 })),
  })
  .map(({ depth, kinds, leaf, width }) => nested(depth, kinds, leaf, width));

const mission = { name: 'm', inputs: [{ name: 'x', type: 'list', required: true }] } as unknown as Mission;
const redactor = createSecretRedactor([{ name: 'vars.k', value: 'secret-value-1' }]);

describe('deep and huge JSON at every entry point', () => {
  it('never throws, refuses exactly what is nested too deep, and what it keeps survives validation and redaction', () => {
    fc.assert(
      fc.property(deepJson, fc.jsonValue({ maxDepth: 3 }), (d, extra) => {
        const value = JSON.parse(d.text) as unknown;
        // The leaf adds levels of its own (up to 3): the bound is checked against the whole value.
        const tooDeep = exceeds(value);

        // A model's arguments as streamed text (only objects are arguments).
        const streamed = parseToolInput(d.text);
        if (tooDeep) {
          expect(streamed.malformedInput).toBe(d.text);
          expect(malformedReason(streamed.malformedInput!)).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
        } else if (d.outer === 'object') expect(streamed).toEqual({ input: value });

        // A model's arguments an SDK already parsed.
        const parsed = boundToolInput(value);
        expect(parsed.malformedInput !== undefined).toBe(tooDeep);

        // An MCP result: the value one level down in structuredContent, and as a text block beside it.
        const result = toToolResult({ content: [{ type: 'text', text: JSON.stringify(extra) }], structuredContent: { v: value } });
        expect(result.isError === true).toBe(exceeds({ v: value }));

        // An -i value of a list input.
        const input = resolveInputs(mission, { x: d.text });
        if (tooDeep) expect(input).toEqual({ ok: false, errors: ['input "x": the value nests arrays and objects more than 100 levels deep, which is refused'] });
        else if (d.outer === 'array') expect(input.ok).toBe(true);

        // What is accepted goes through the recursive walkers after the entry without overflowing.
        if (!tooDeep) {
          expect(() => validateToolInput({ type: 'object' }, { v: value })).not.toThrow();
          expect(redactor.redactValue({ v: value })).toEqual({ v: value });
        }
      }),
      { numRuns: 30 },
    );
  }, 300_000);
});

/** The reference: depth counted by recursion-free walking (the bound's definition, written again). */
function exceeds(value: unknown): boolean {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const d = depth + 1;
    if (d > max) max = d;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d]);
  }
  return max > MAX_JSON_DEPTH;
}
