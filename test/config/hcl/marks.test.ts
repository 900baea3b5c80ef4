// Sensitivity marks: what an expression computes from a marked (secret) value is reported with the
// secret's name, through functions, operators and `for`; constructors report their marked parts, not
// themselves; a condition's mark does not reach the value it chooses.

import { describe, expect, it } from 'vitest';
import { evaluate, stdlibFunctions, unknown, type SensitiveString } from '../../../config/hcl/index.js';
import { parseExpr } from './support/helpers.js';

const VARS = { vars: { s: 'sekret-1', pub: 'public', n: '7' }, inputs: { q: 'x' } };

function marked(src: string, variables: Record<string, unknown> = VARS): SensitiveString[] | undefined {
  const r = evaluate(parseExpr(src), { variables: variables as never, functions: stdlibFunctions, sensitive: { vars: new Set(['s']) } });
  expect(r.diagnostics).toEqual([]);
  return r.sensitive;
}

const values = (src: string): string[] => (marked(src) ?? []).map((m) => m.value);

describe('marks', () => {
  it('marks what functions and operators compute from a secret, with its name', () => {
    expect(marked('upper(vars.s)')).toEqual([
      { name: 'vars.s', value: 'sekret-1' },
      { name: 'vars.s', value: 'SEKRET-1' },
    ]);
    expect(values('base64encode("u:${vars.s}")')).toEqual(['sekret-1', Buffer.from('u:sekret-1').toString('base64')]);
    expect(values('trimspace(replace(vars.s, "-", " "))')).toContain('sekret 1');
    expect(values('jsonencode({ t = vars.s })')).toContain('{"t":"sekret-1"}');
    expect(values('[for x in ["a", "b"] : "${x}:${lower(vars.s)}"]')).toEqual(expect.arrayContaining(['a:sekret-1', 'b:sekret-1']));
    expect(values('vars["s"]')).toEqual(['sekret-1']);
  });

  it('leaves unmarked what reads no secret, and the literal text around a secret in a template', () => {
    expect(marked('upper(vars.pub)')).toEqual([]);
    // The whole `vars` is read, so what is computed from it is marked, not each plain variable in it.
    expect(values('jsonencode(vars)')).toEqual(['{"n":"7","pub":"public","s":"sekret-1"}']);
    // The template itself is not marked: its secret part is, so "Bearer " stays readable.
    expect(values('"Bearer ${vars.s}"')).toEqual(['sekret-1']);
    expect(values('{ Accept = "json", X-Key = upper(vars.s) }')).toEqual(['sekret-1', 'SEKRET-1']);
  });

  it('does not pass a condition\'s mark to the value it chooses', () => {
    expect(values('vars.s != "" ? "enabled" : "off"')).toEqual(['sekret-1']);
    expect(values('vars.pub != "" ? upper(vars.s) : "off"')).toEqual(['sekret-1', 'SEKRET-1']);
  });

  it('marks the known parts of a value that is not known yet (an objective before its inputs)', () => {
    const r = evaluate(parseExpr('"Use ${upper(vars.s)} for ${inputs.q}"'), {
      variables: { vars: VARS.vars, inputs: { q: unknown } } as never,
      functions: stdlibFunctions,
      sensitive: { vars: new Set(['s']) },
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.value).toBe(unknown);
    expect((r.sensitive ?? []).map((m) => m.value)).toContain('SEKRET-1');
  });

  it('reports nothing without marks', () => {
    expect(evaluate(parseExpr('upper(vars.s)'), { variables: VARS as never, functions: stdlibFunctions }).sensitive).toBeUndefined();
  });
});
