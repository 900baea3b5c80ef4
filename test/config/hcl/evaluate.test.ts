// Expression evaluation: every expression form, HCL operator semantics, Unknown propagation, and
// errors as diagnostics at the sub-expression's range with HCL-like wording and hints.

import { describe, expect, it } from 'vitest';
import { evaluate, FunctionError, isUnknown, parseHcl, stdlibFunctions, unknown, type HclFunction, type Value } from '../../../config/hcl/index.js';
import { brief, ev, value } from './support/helpers.js';

const vars: Record<string, Value> = {
  vars: { region: 'eu-west-1', count: 3, flag: true, list: [1, 2, 3], nested: { deep: { x: 'y' } } },
  models: { anthropic: { claude_sonnet_4: { name: 'claude' } } },
  agents: [
    { name: 'a', tools: ['t1', 't2'] },
    { name: 'b', tools: [] },
  ],
  nothing: null,
  later: unknown,
};

describe('evaluate: literals and constructors', () => {
  it('evaluates number, bool, null and string literals', () => {
    expect(value('42')).toBe(42);
    expect(value('2.5e3')).toBe(2500);
    expect(value('true')).toBe(true);
    expect(value('null')).toBe(null);
    expect(value('"a\\tb\\u00e9"')).toBe('a\tbé');
  });

  it('builds tuples and objects with identifier, quoted and parenthesised keys', () => {
    expect(value('[1, "two", [3]]')).toEqual([1, 'two', [3]]);
    expect(value('{ a = 1, "b c" = 2, (vars.region) = 3, 4 = "four" }', vars)).toEqual({ a: 1, 'b c': 2, 'eu-west-1': 3, '4': 'four' });
  });

  it('treats "__proto__" as an ordinary object key', () => {
    const o = value('merge({ "__proto__" = 1 }, jsondecode("{\\"__proto__\\": 2, \\"b\\": 3}"))');
    expect(Object.keys(o as object)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(value('{for k in ["__proto__"] : k => 1}.__proto__')).toBe(1);
  });

  it('reports a null object key at the key', () => {
    expect(brief(ev('{ (nothing) = 1 }', vars).diagnostics)).toEqual(['1:7 EVAL011 Null value as key']);
  });
});

describe('evaluate: variables and traversals', () => {
  it('reads attributes, indexes and legacy .N indexes', () => {
    expect(value('models.anthropic.claude_sonnet_4.name', vars)).toBe('claude');
    expect(value('vars.list[1]', vars)).toBe(2);
    expect(value('vars.list.2', vars)).toBe(3);
    expect(value('vars["region"]', vars)).toBe('eu-west-1');
    expect(value('agents[0].tools[1]', vars)).toBe('t2');
    expect(value('vars.list[vars.count - 1]', vars)).toBe(3);
  });

  it('reports an unknown variable at its name, with a did-you-mean hint', () => {
    const r = ev('vras.region', vars);
    expect(brief(r.diagnostics)).toEqual(['1:5 EVAL001 Unknown variable']);
    expect(r.diagnostics[0]!.message).toBe('Unknown variable: There is no variable named "vras".');
    expect(r.diagnostics[0]!.hint).toBe('Did you mean "vars"?');
    expect(isUnknown(r.value)).toBe(true);
  });

  it('reports an unsupported attribute at the step, with a did-you-mean hint', () => {
    const r = ev('vars.regoin', vars);
    expect(r.diagnostics[0]).toMatchObject({ code: 'EVAL002', line: 1, column: 9, endColumn: 16 });
    expect(r.diagnostics[0]!.message).toBe('Unsupported attribute: This object does not have an attribute named "regoin".');
    expect(r.diagnostics[0]!.hint).toBe('Did you mean "region"?');
  });

  it('lists the available attributes when no name is close', () => {
    expect(ev('vars.zzzzzzzz', vars).diagnostics[0]!.hint).toBe('Available attributes: region, count, flag, list, nested.');
  });

  it('reports an index out of range and attribute access on null', () => {
    const r = ev('vars.list[7]', vars);
    expect(brief(r.diagnostics)).toEqual(['1:14 EVAL003 Invalid index']);
    expect(r.diagnostics[0]!.hint).toBe('This list has 3 elements; valid indexes are 0 to 2.');
    expect(brief(ev('nothing.x', vars).diagnostics)).toEqual(['1:12 EVAL015 Attempt to get attribute from null value']);
  });

  it('reports one error for a broken traversal, not one per step', () => {
    expect(ev('vars.missing.a.b.c', vars).diagnostics).toHaveLength(1);
  });

  it('evaluates full and attribute-only splats', () => {
    expect(value('agents[*].name', vars)).toEqual(['a', 'b']);
    expect(value('agents.*.name', vars)).toEqual(['a', 'b']);
    expect(value('agents[*].tools[0]', { agents: [{ tools: ['x'] }, { tools: ['y'] }] })).toEqual(['x', 'y']);
    expect(value('nothing[*].x', vars)).toEqual([]);
    expect(value('vars.nested[*].deep.x', vars)).toEqual(['y']);
  });

  it('evaluates nested splats', () => {
    expect(value('groups[*].members[*].name', { groups: [{ members: [{ name: 'a' }, { name: 'b' }] }, { members: [{ name: 'c' }] }] })).toEqual([['a', 'b'], ['c']]);
  });
});

describe('evaluate: operators', () => {
  it('does arithmetic on numbers, converting numeric strings', () => {
    expect(value('1 + 2 * 3')).toBe(7);
    expect(value('7 % 4 - 10 / 4')).toBe(0.5);
    expect(value('"2" + 3')).toBe(5);
    expect(value('-vars.count', vars)).toBe(-3);
  });

  it('never concatenates with +: a non-numeric string is an invalid operand', () => {
    const r = ev('"a" + "b"');
    expect(brief(r.diagnostics)).toEqual(['1:5 EVAL004 Invalid operand', '1:11 EVAL004 Invalid operand']);
    expect(r.diagnostics[0]!.hint).toContain('template');
  });

  it('reports division by zero at the divisor', () => {
    expect(brief(ev('1 / (2 - 2)').diagnostics)).toEqual(['1:9 EVAL013 Invalid operand']);
  });

  it('compares numbers, and compares == deeply without conversion', () => {
    expect(value('2 >= 2 && 1 < 2 && 3 > 2 && 1 <= 0 == false')).toBe(true);
    expect(value('1 == "1"')).toBe(false);
    expect(value('[1, {a = [2]}] == [1, {a = [2]}]')).toBe(true);
    expect(value('{a = 1} != {a = 1, b = 2}')).toBe(true);
    expect(value('null == null')).toBe(true);
  });

  it('requires bools for logic operators and skips the right side when the left decides', () => {
    expect(value('true || undefined_var')).toBe(true);
    expect(value('false && undefined_var')).toBe(false);
    expect(value('!false && "true"')).toBe(true);
    expect(brief(ev('1 && true').diagnostics)).toEqual(['1:5 EVAL004 Invalid operand']);
  });

  it('evaluates only the chosen branch of a conditional', () => {
    expect(value('vars.flag ? "yes" : missing.thing', vars)).toBe('yes');
    expect(brief(ev('"maybe" ? 1 : 2').diagnostics)).toEqual(['1:5 EVAL008 Incorrect condition type']);
    expect(brief(ev('nothing ? 1 : 2', vars).diagnostics)).toEqual(['1:5 EVAL008 Null condition']);
  });
});

describe('evaluate: for expressions', () => {
  it('builds tuples with an index variable and an if filter', () => {
    expect(value('[for i, x in vars.list : x * 10 if i != 1]', vars)).toEqual([10, 30]);
  });

  it('builds objects, iterating object keys in lexicographic order', () => {
    expect(value('{for k, v in {b = 2, a = 1} : upper(k) => v}')).toEqual({ A: 1, B: 2 });
    expect(value('[for k, v in {b = 2, a = 1} : k]')).toEqual(['a', 'b']);
  });

  it('groups values by key with ...', () => {
    expect(value('{for x in ["apple", "avocado", "banana"] : substr(x) => x...}'.replace('substr(x)', 'upper(split("", x)[0])'))).toEqual({
      A: ['apple', 'avocado'],
      B: ['banana'],
    });
  });

  it('reports duplicate keys without ... and iteration over a non-collection', () => {
    expect(brief(ev('{for x in [1, 1] : "k" => x}').diagnostics)).toEqual(['1:24 EVAL009 Duplicate object key']);
    expect(brief(ev('[for x in "abc" : x]').diagnostics)).toEqual(['1:15 EVAL009 Iteration over non-iterable value']);
  });

  it('does not leak the iteration variables outside the expression', () => {
    expect(brief(ev('[[for x in [1] : x], x]').diagnostics)).toEqual(['1:26 EVAL001 Unknown variable']);
  });
});

describe('evaluate: function calls', () => {
  const fns: Record<string, HclFunction> = {
    add: { minArgs: 2, maxArgs: 2, call: (a) => (a[0] as number) + (a[1] as number) },
    sum: { minArgs: 0, call: (a) => a.reduce<number>((s, x) => s + (x as number), 0) },
    fail: {
      minArgs: 1,
      maxArgs: 1,
      call: () => {
        throw new FunctionError('argument is not acceptable', 0);
      },
    },
  };

  it('calls functions from ctx.functions only', () => {
    expect(ev('add(1, 2)', {}, fns).value).toBe(3);
    expect(brief(ev('upper("x")', {}, fns).diagnostics)).toEqual(['1:5 EVAL005 Call to unknown function']);
  });

  it('expands a final tuple argument with ...', () => {
    expect(ev('sum(1, [2, 3]...)', {}, fns).value).toBe(6);
    expect(brief(ev('sum("x"...)', {}, fns).diagnostics)).toEqual(['1:9 EVAL012 Invalid expanding argument value']);
  });

  it('suggests the intended function name', () => {
    const r = ev('ad(1, 2)', {}, fns);
    expect(r.diagnostics[0]!.message).toBe('Call to unknown function: There is no function named "ad".');
    expect(r.diagnostics[0]!.hint).toBe('Did you mean "add"?');
  });

  it('checks the argument count', () => {
    expect(brief(ev('add(1)', {}, fns).diagnostics)).toEqual(['1:5 EVAL007 Not enough function arguments']);
    expect(brief(ev('add(1, 2, 3)', {}, fns).diagnostics)).toEqual(['1:15 EVAL007 Too many function arguments']);
  });

  it('reports a FunctionError at the offending argument', () => {
    const r = ev('fail( "bad" )', {}, fns);
    expect(r.diagnostics[0]).toMatchObject({ code: 'EVAL006', column: 11, endColumn: 16 });
    expect(r.diagnostics[0]!.message).toBe('Error in function call: Call to function "fail" failed: argument is not acceptable');
  });
});

describe('evaluate: Unknown propagation', () => {
  it('propagates Unknown through operators, traversals, calls and conditionals', () => {
    for (const src of ['later + 1', 'later.x.y', 'later[0]', 'upper(later)', 'later ? 1 : 2', '[for x in later : x]', 'later == 1', '-later', 'later[*].a']) {
      const r = ev(src, vars);
      expect(r.diagnostics, src).toEqual([]);
      expect(isUnknown(r.value), src).toBe(true);
    }
  });

  it('keeps known parts of collections known', () => {
    const r = ev('[1, later]', vars);
    expect(Array.isArray(r.value) && r.value[0]).toBe(1);
    expect(Array.isArray(r.value) && isUnknown(r.value[1]!)).toBe(true);
  });

  it('lets a known operand decide a logic operator', () => {
    expect(value('later || true', vars)).toBe(true);
    expect(value('later && false', vars)).toBe(false);
  });
});

describe('evaluate: long chains and deep values', () => {
  it('evaluates a chain of 10,000 operators left to right', () => {
    expect(value(Array(10_000).fill('1').join(' + '))).toBe(10_000);
    expect(value(['30000', ...Array(9_999).fill('1')].join(' - '))).toBe(20_001);
    expect(value(Array(5_000).fill('2 * 3').join(' + '))).toBe(30_000);
  });

  it('still skips the right operand of && and || that the left one decides, along a long chain', () => {
    const calls: number[] = [];
    const fns: Record<string, HclFunction> = {
      t: { minArgs: 1, maxArgs: 1, call: (args) => (calls.push(args[0] as number), true) },
    };
    const r = ev(['false', ...Array.from({ length: 3000 }, (_, i) => `t(${i})`)].join(' && '), {}, fns);
    expect(r.value).toBe(false);
    expect(calls).toEqual([]);
    expect(ev(['t(0)', 't(1)', 'false', 't(2)'].join(' && '), {}, fns).value).toBe(false);
    expect(calls).toEqual([0, 1]);
  });

  it('a value nested too deep to compare is EVAL016 at the expression, not an exception', () => {
    let deep: Value = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const r = ev('x == x', { x: deep });
    expect(brief(r.diagnostics)).toEqual(['1:5 EVAL016 Expression too complex']);
    expect(isUnknown(r.value)).toBe(true);
  });
});

describe('evaluate: strings are NFC-normalised, as cty normalises every string', () => {
  it('compares a decomposed and a precomposed string as equal', () => {
    expect(value(String.raw`"n\u0303" == "\u00f1"`)).toBe(true);
    expect(value(String.raw`"n\u0303"`)).toBe('\u00f1');
    expect(value('"n\u0303"')).toBe('\u00f1');
  });

  it('normalises a template as a whole, heredocs and directive bodies included', () => {
    expect(value(String.raw`"${"n"}\u0303"`)).toBe('\u00f1');
    expect(value('"%{ for c in ["n"] }${c}\u0303%{ endfor }"')).toBe('\u00f1');
    const heredoc = parseHcl('x = <<EOT\nman\u0303ana\nEOT\n', 'h.hcl').file.body.attributes[0]!.expr;
    expect(evaluate(heredoc, { variables: {}, functions: stdlibFunctions }).value).toBe('ma\u00f1ana\n');
  });

  it('normalises object keys given as strings and function results, not identifier keys', () => {
    expect(value(String.raw`{ "n\u0303" = 1 }`)).toEqual({ '\u00f1': 1 });
    expect(value(String.raw`jsondecode("{\"n\\u0303\": \"n\\u0303\"}")`)).toEqual({ '\u00f1': '\u00f1' });
    expect(value(String.raw`join("", ["n", "\u0303"])`)).toBe('\u00f1');
  });

  it('leaves labels, identifiers and comments as written', () => {
    const src = 'block "n\u0303" {\n  # n\u0303\n  x = 1\n}\n';
    const { file } = parseHcl(src, 'l.hcl');
    expect(file.body.blocks[0]!.labels).toEqual(['n\u0303']);
    expect(file.source).toBe(src);
  });
});
