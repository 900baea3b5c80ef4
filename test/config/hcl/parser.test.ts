// Parser behaviour: AST shape and exact ranges, operator precedence, syntax errors with exact
// positions and stable codes, and recovery that reports several independent errors per file.

import { describe, expect, it } from 'vitest';
import { expressionSource, parseHcl, type Expression } from '../../../config/hcl/index.js';
import { brief, parseExpr } from './support/helpers.js';

/** A compact, parenthesised rendering of an expression tree, to check precedence. */
function shape(e: Expression): string {
  switch (e.kind) {
    case 'Literal':
      return JSON.stringify(e.value);
    case 'ScopeTraversal':
      return e.root + e.steps.map((s) => (s.kind === 'GetAttr' ? `.${s.name}` : `[${shape(s.key)}]`)).join('');
    case 'Binary':
      return `(${shape(e.left)} ${e.op} ${shape(e.right)})`;
    case 'Unary':
      return `(${e.op}${shape(e.operand)})`;
    case 'Conditional':
      return `(${shape(e.condition)} ? ${shape(e.trueExpr)} : ${shape(e.falseExpr)})`;
    case 'Parentheses':
      return `[${shape(e.expr)}]`;
    default:
      return e.kind;
  }
}

describe('parseHcl: structure', () => {
  it('parses attributes and labelled blocks with exact 1-based ranges and offsets', () => {
    const src = 'region = "eu"\n\nagent "a" other {\n  model = 1\n}\n';
    const { file, diagnostics } = parseHcl(src, 'm.hcl');
    expect(diagnostics).toEqual([]);
    const attr = file.body.attributes[0]!;
    expect(attr.name).toBe('region');
    expect(JSON.parse(JSON.stringify(attr.nameRange))).toEqual({ file: 'm.hcl', start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 7, offset: 6 } });
    expect(attr.expr.range.start).toEqual({ line: 1, column: 10, offset: 9 });
    const block = file.body.blocks[0]!;
    expect(block.type).toBe('agent');
    expect(block.labels).toEqual(['a', 'other']);
    expect(block.labelRanges.map((r) => [r.start.column, r.end.column])).toEqual([
      [7, 10],
      [11, 16],
    ]);
    expect(block.openBraceRange.start).toEqual({ line: 3, column: 17, offset: 31 });
    expect(block.closeBraceRange.start).toEqual({ line: 5, column: 1, offset: 45 });
    expect(block.range.end).toEqual({ line: 5, column: 2, offset: 46 });
    expect(block.body.attributes[0]!.name).toBe('model');
  });

  it('counts columns in characters, so an emoji before a token is one column', () => {
    const { file } = parseHcl('a = ["😀", b]\n', 'u.hcl');
    const tuple = file.body.attributes[0]!.expr;
    if (tuple.kind !== 'Tuple') throw new Error('expected tuple');
    expect(tuple.items[1]!.range.start.column).toBe(11);
    expect(tuple.items[1]!.range.start.offset).toBe(11);
  });

  it('parses one-line and empty blocks', () => {
    const { file, diagnostics } = parseHcl('settings { temperature = 0.5 }\nempty {}\nnested "x" {\n}\n', 'b.hcl');
    expect(diagnostics).toEqual([]);
    expect(file.body.blocks.map((b) => [b.type, b.body.attributes.map((a) => a.name)])).toEqual([
      ['settings', ['temperature']],
      ['empty', []],
      ['nested', []],
    ]);
  });

  it('accepts all three comment styles anywhere whitespace is allowed', () => {
    const src = '# hash\n// slashes\n/* block\n   comment */ a = 1 # trailing\nb = [ /* inside */ 2 ] // end\n';
    const { file, diagnostics } = parseHcl(src, 'c.hcl');
    expect(diagnostics).toEqual([]);
    expect(file.body.attributes.map((a) => a.name)).toEqual(['a', 'b']);
  });

  it('keeps the heredoc marker and whether it strips indentation', () => {
    const e = parseExpr('<<-EOT\n  hi\n  EOT\n');
    expect(e.kind === 'Template' && e.heredoc).toEqual({ marker: 'EOT', indented: true });
    const plain = parseExpr('<<EOF\nhi\nEOF\n');
    expect(plain.kind === 'Template' && plain.heredoc).toEqual({ marker: 'EOF', indented: false });
  });

  it('returns the exact source text of an expression', () => {
    const src = 'x = upper( vars.name ) # comment\n';
    const { file } = parseHcl(src, 's.hcl');
    expect(expressionSource(file, file.body.attributes[0]!.expr)).toBe('upper( vars.name )');
  });
});

describe('parseHcl: expression shapes', () => {
  it('applies HCL precedence: * / % over + -, then comparisons, ==, &&, ||', () => {
    expect(shape(parseExpr('1 + 2 * 3 - 4 / 2 % 3'))).toBe('((1 + (2 * 3)) - ((4 / 2) % 3))');
    expect(shape(parseExpr('a || b && c == d < e + 1'))).toBe('(a || (b && (c == (d < (e + 1)))))');
    expect(shape(parseExpr('a == b != c'))).toBe('((a == b) != c)');
  });

  it('binds unary operators tighter than binary ones, and to the whole traversal', () => {
    expect(shape(parseExpr('-1 + 2'))).toBe('((-1) + 2)');
    expect(shape(parseExpr('!a.b == c'))).toBe('((!a.b) == c)');
  });

  it('nests conditionals to the right and accepts parentheses', () => {
    expect(shape(parseExpr('a ? b : c ? d : e'))).toBe('(a ? b : (c ? d : e))');
    expect(shape(parseExpr('(1 + 2) * 3'))).toBe('([(1 + 2)] * 3)');
  });

  it('keeps constant index steps in the traversal and makes dynamic ones IndexExpr', () => {
    const t = parseExpr('models.anthropic.claude[0]["k"].1');
    expect(t.kind).toBe('ScopeTraversal');
    if (t.kind !== 'ScopeTraversal') return;
    expect(t.root).toBe('models');
    expect(t.steps.map((s) => (s.kind === 'GetAttr' ? s.name : s.key.kind === 'Literal' ? s.key.value : '?'))).toEqual(['anthropic', 'claude', 0, 'k', 1]);
    const dyn = parseExpr('agents[vars.name].model');
    expect(dyn.kind).toBe('RelativeTraversal');
    if (dyn.kind === 'RelativeTraversal') expect(dyn.source.kind).toBe('Index');
  });

  it('parses both splat forms with their per-element steps', () => {
    const full = parseExpr('tasks[*].output.name');
    expect(full.kind === 'Splat' && [full.full, full.each.map((s) => s.kind === 'GetAttr' && s.name)]).toEqual([true, ['output', 'name']]);
    const attr = parseExpr('tasks.*.name');
    expect(attr.kind === 'Splat' && [attr.full, attr.each.length]).toEqual([false, 1]);
  });

  it('marks bare identifier object keys and the expanded final call argument', () => {
    const o = parseExpr('{ a = 1, "b" = 2, (c) = 3, d: 4 }');
    expect(o.kind === 'Object' && o.items.map((i) => i.keyIsIdentifier)).toEqual([true, false, false, true]);
    const call = parseExpr('max(1, xs...)');
    expect(call.kind === 'FunctionCall' && [call.name, call.args.length, call.expandFinal]).toEqual(['max', 2, true]);
  });

  it('parses tuple and object for expressions with filters and grouping', () => {
    const t = parseExpr('[for i, x in xs : x if i > 0]');
    expect(t.kind === 'For' && [t.isObject, t.keyVar, t.valueVar, t.condition !== undefined]).toEqual([false, 'i', 'x', true]);
    const o = parseExpr('{for x in xs : x.k => x.v...}');
    expect(o.kind === 'For' && [o.isObject, o.grouping, o.keyExpr !== undefined]).toEqual([true, true, true]);
  });
});

describe('parseHcl: syntax errors', () => {
  it('reports an invalid character with HCL wording, code and exact position', () => {
    const { diagnostics } = parseHcl('a = 1;\n', 'e.hcl');
    expect(diagnostics[0]).toMatchObject({
      code: 'SYN001',
      line: 1,
      column: 6,
      endColumn: 7,
      message: 'Invalid character: The ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.',
    });
  });

  it('reports an attribute set twice as "Attribute redefined" at the second name', () => {
    const { diagnostics } = parseHcl('tools = 1\nname = 2\ntools = 3\n', 'dup.hcl');
    expect(brief(diagnostics)).toEqual(['3:1 SYN009 Attribute redefined']);
    expect(diagnostics[0]!.message).toBe('Attribute redefined: The argument "tools" may be set only once');
    expect(diagnostics[0]!.related).toEqual({ label: 'first set at', file: 'dup.hcl', line: 1, column: 1 });
    expect(diagnostics[0]!.hint).toBeDefined();
  });

  it('rejects two arguments in a one-line block', () => {
    const { diagnostics } = parseHcl('route { target = a, condition = "x" }\n', 'r.hcl');
    expect(brief(diagnostics)).toEqual(['1:19 SYN012 Invalid single-argument block definition']);
  });

  it('requires a newline after an argument', () => {
    expect(brief(parseHcl('a = 1 b = 2\n', 'n.hcl').diagnostics)).toEqual(['1:7 SYN010 Missing newline after argument']);
    expect(brief(parseHcl('a = 1, b = 2\n', 'n.hcl').diagnostics)).toEqual(['1:6 SYN010 Unexpected comma after argument']);
  });

  it('reports an unclosed block at its opening brace', () => {
    expect(brief(parseHcl('agent "a" {\n  x = 1\n', 'u.hcl').diagnostics)).toEqual(['1:11 SYN008 Unclosed configuration block']);
  });

  it('reports a newline inside a quoted string and an unterminated heredoc', () => {
    expect(brief(parseHcl('a = "abc\nb = 1\n', 's.hcl').diagnostics)[0]).toBe('1:9 SYN004 Invalid multi-line string');
    expect(brief(parseHcl('a = <<EOT\nabc\n', 'h.hcl').diagnostics)).toEqual(['3:1 SYN029 Unterminated template string']);
  });

  it('reports a missing expression and an invalid block header', () => {
    expect(brief(parseHcl('a = \n', 'x.hcl').diagnostics)).toEqual(['1:5 SYN015 Invalid expression']);
    expect(brief(parseHcl('agent "a"\n{\n}\n', 'x.hcl').diagnostics)[0]).toBe('1:10 SYN011 Invalid block definition');
    expect(brief(parseHcl('agent "a" = {}\n', 'x.hcl').diagnostics)[0]).toBe('1:11 SYN011 Invalid block definition');
  });

  it('reports template directive errors, suggesting the keyword meant', () => {
    const d = parseHcl('a = "%{ iff x }y%{ endif }"\n', 't.hcl').diagnostics;
    expect(brief(d)[0]).toBe('1:9 SYN026 Invalid template control keyword');
    expect(d[0]!.message).toContain('Did you mean "if"?');
    expect(brief(parseHcl('a = "%{ if x }y"\n', 't.hcl').diagnostics)).toEqual(['1:16 SYN026 Unexpected end of template']);
  });

  it('rejects chained legacy indexes, suggesting the bracket form', () => {
    const d = parseHcl('a = x.0.1\n', 'l.hcl').diagnostics;
    expect(brief(d)).toEqual(['1:7 SYN023 Invalid legacy index syntax']);
    expect(d[0]!.message).toContain('like [0][1]');
  });

  it('lists lexical errors before parse errors, as HashiCorp does', () => {
    const d = parseHcl('a = (1\nb = 2;\n', 'o.hcl').diagnostics;
    expect(d[0]!.code).toBe('SYN001');
    expect(d[0]!.line).toBe(2);
  });
});

describe('parseHcl: recovery', () => {
  it('reports independent errors on several lines of one file', () => {
    const src = ['a = 1;', 'b = [1 2]', 'c = "ok"', 'block {', '  d = )', '}', 'e = 1 f', ''].join('\n');
    const { diagnostics } = parseHcl(src, 'many.hcl');
    expect(brief(diagnostics)).toEqual([
      '1:6 SYN001 Invalid character',
      '1:6 SYN010 Missing newline after argument',
      '2:8 SYN017 Missing item separator',
      '5:7 SYN015 Invalid expression',
      '7:7 SYN010 Missing newline after argument',
    ]);
  });

  it('still returns the valid parts of a file with errors', () => {
    const { file, diagnostics } = parseHcl('a = 1\nb = = 2\nc = 3\nagent "x" {\n  model = m\n}\n', 'p.hcl');
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(file.body.attributes.map((a) => a.name)).toEqual(['a', 'b', 'c']);
    expect(file.body.blocks[0]!.body.attributes[0]!.name).toBe('model');
  });
});

describe('parseHcl: nesting bound', () => {
  const codesOf = (src: string): string[] => parseHcl(src, 'deep.hcl').diagnostics.map((d) => d.code);

  it('rejects nesting past 256 levels with one SYN030 instead of overflowing the stack', () => {
    for (const expr of [
      '('.repeat(5000) + '1' + ')'.repeat(5000),
      '['.repeat(5000) + ']'.repeat(5000),
      '{a='.repeat(5000) + '1' + '}'.repeat(5000),
      'abs('.repeat(5000) + '1' + ')'.repeat(5000),
      '!'.repeat(5000) + 'true',
      'true ? 1 : '.repeat(5000) + '2',
      'x' + '[y]'.repeat(5000),
      'x' + '[*]'.repeat(5000),
      'f(1)' + '.a[y]'.repeat(5000),
      '[for a in b : '.repeat(5000) + '1' + ']'.repeat(5000),
      '"' + '%{for a in b}'.repeat(5000) + 'x' + '%{endfor}'.repeat(5000) + '"',
    ]) {
      expect(codesOf(`v = ${expr}\n`)).toEqual(['SYN030']);
    }
  });

  it('accepts 250 levels of each kind', () => {
    for (const expr of ['('.repeat(250) + '1' + ')'.repeat(250), 'x' + '[y]'.repeat(250), 'x' + '[y['.repeat(125) + '0' + ']]'.repeat(125), '"' + '%{if a}'.repeat(250) + '%{endif}'.repeat(250) + '"']) {
      expect(codesOf(`v = ${expr}\n`)).toEqual([]);
    }
    expect(codesOf(`${'b {\n'.repeat(250)}${'}\n'.repeat(250)}`)).toEqual([]);
  });

  it('skips a block nested one level too deep whole, and goes on after it', () => {
    const d = parseHcl(`${'b {\n'.repeat(300)}${'}\n'.repeat(300)}after = [\n`, 'deep.hcl').diagnostics;
    expect(brief(d)).toEqual(['257:3 SYN030 Expression nested too deeply', '602:1 SYN015 Missing expression']);
  });

  it('parses a flat chain of 10,000 operands as a left-leaning tree, without recursion per operand', () => {
    const e = parseExpr(Array(10_000).fill('a').join(' - '));
    let depth = 0;
    for (let n: Expression = e; n.kind === 'Binary'; n = n.left) depth++;
    expect(depth).toBe(9_999);
  });
});

describe('parseHcl: placeholders for what failed to parse', () => {
  it('a value with a syntax error becomes an invalid placeholder spanning it', () => {
    const { file } = parseHcl('a = [1, foo.]\nb = 2\n', 'p.hcl');
    const [a, b] = file.body.attributes;
    expect(a!.expr).toMatchObject({ kind: 'Literal', value: null, invalid: true, range: { start: { column: 5 } } });
    expect(b!.expr).toMatchObject({ kind: 'Literal', value: 2 });
  });
});

describe('SourceMap with characters outside the BMP', () => {
  it('counts a surrogate pair as one column, on the line it is on only', () => {
    const { diagnostics } = parseHcl('a = "😀😀" ;\nb = "😀" ;\nc = 1 ;\n', 'e.hcl');
    expect([...new Set(diagnostics.map((d) => `${d.line}:${d.column}`))]).toEqual(['1:10', '2:9', '3:7']);
  });

  it('one emoji in a long single-line list costs no more than a plain character', () => {
    const items = Array.from({ length: 13_000 }, (_, i) => `"a${i % 10}"`).join(',');
    const time = (src: string): number => {
      const t = performance.now();
      parseHcl(src, 'e.hcl');
      return performance.now() - t;
    };
    time(`x = [${items}]\n`); // warm up
    const plain = time(`x = ["a",${items}]\n`);
    const emoji = time(`x = ["😀",${items}]\n`);
    // Before, each token's column was counted from the line start: ~30x slower here, minutes at 1 MB.
    expect(emoji).toBeLessThan(plain * 4 + 100);
  });
});
