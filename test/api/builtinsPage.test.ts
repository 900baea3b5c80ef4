// The builtins page is written from ToolSpecs: a schema's type is summarized in a few words, and a
// tool the runtime registers shows up with its inputs (so a new builtin needs no docs edit).

import { describe, expect, test } from 'vitest';
import { builtinsPage, typeOf } from '../../api/builtinsPage.js';
import { builtinToolSpecs } from '../../runtime/tools/builtins/index.js';
import type { ToolSpec } from '../../runtime/tools/types.js';

describe('typeOf', () => {
  test('summarizes enums, unions, maps, lists and bounds', () => {
    expect(typeOf({ type: 'string', enum: ['json', 'form'] })).toBe('"json" | "form"');
    expect(typeOf({ anyOf: [{ type: 'object' }, { type: 'string' }] })).toBe('object or string');
    expect(typeOf({ type: 'object', additionalProperties: { type: 'string' } })).toBe('object of strings');
    expect(typeOf({ type: 'array', items: { type: 'integer' } })).toBe('list of integers');
    expect(typeOf({ type: 'number', exclusiveMinimum: 0, maximum: 60 })).toBe('number, > 0, ≤ 60');
  });
});

describe('builtinsPage', () => {
  test('a tool added to the runtime appears with its inputs, under its namespace', () => {
    const extra: ToolSpec = {
      ...builtinToolSpecs()[0]!,
      ref: 'builtins.utils.uuid',
      apiName: 'builtins_utils_uuid',
      group: 'builtins.utils',
      description: 'Return a random UUID.',
      inputSchema: { type: 'object', properties: { version: { type: 'integer', description: 'UUID version (4 or 7).' } }, required: ['version'] },
      idempotent: false,
    };
    const page = builtinsPage([...builtinToolSpecs(), extra]);
    expect(page).toContain('### builtins.utils.uuid\n\nReturn a random UUID.\n\nAPI name `builtins_utils_uuid`; not re-run when interrupted.');
    expect(page).toContain('| `version` | integer | yes | UUID version (4 or 7). |');
    expect(page).toMatch(/`builtins\.utils\.all` expands to: [^\n]*`builtins\.utils\.uuid`\./);
    expect(page).toContain(`The ${builtinToolSpecs().length + 1} built-in tools`);
  });

  test('a tool without inputs says so', () => {
    const page = builtinsPage([{ ...builtinToolSpecs()[0]!, inputSchema: { type: 'object' } }]);
    expect(page).toContain('No inputs.');
  });
});
