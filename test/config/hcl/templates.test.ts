// Templates: interpolation, %{if}/%{for} directives, `~` strip markers, heredocs and the
// indentation stripping of `<<-`, escapes, and how Unknown and null behave inside a string.

import { describe, expect, it } from 'vitest';
import { isUnknown, unknown } from '../../../config/hcl/index.js';
import { brief, ev, value } from './support/helpers.js';

const v = { name: 'Ada', n: 2, items: ['a', 'b', 'c'], on: true, off: false, obj: { y: 2, x: 1 }, later: unknown, nothing: null };

describe('templates', () => {
  it('interpolates numbers, bools and strings', () => {
    expect(value('"${name} has ${n} items: ${on}"', v)).toBe('Ada has 2 items: true');
    expect(value('"${n / 4}"', v)).toBe(0.5); // a lone interpolation keeps its type
    expect(value('"x${n / 4}"', v)).toBe('x0.5');
  });

  it('yields the value itself for a lone interpolation', () => {
    expect(value('"${items}"', v)).toEqual(['a', 'b', 'c']);
    expect(value('"${n}"', v)).toBe(2);
  });

  it('renders if/else/endif and for directives', () => {
    expect(value('"%{ if on }yes%{ else }no%{ endif }/%{ if off }yes%{ else }no%{ endif }"', v)).toBe('yes/no');
    expect(value('"%{ for i, x in items }${i}=${x};%{ endfor }"', v)).toBe('0=a;1=b;2=c;');
    expect(value('"%{ for k, val in obj }${k}${val} %{ endfor }"', v)).toBe('x1 y2 ');
  });

  it('strips whitespace on the marked side of a ~ strip marker', () => {
    expect(value('"a   ${~ name ~}   b"', v)).toBe('aAdab');
    expect(value('"a   ${~ name}   b"', v)).toBe('aAda   b');
    expect(value('"a   ${name ~}   b"', v)).toBe('a   Adab');
    expect(value('"[ %{~ for x in items ~} ${x} %{~ endfor ~} ]"', v)).toBe('[abc]');
  });

  it('keeps literal ${ and %{ written as $${ and %%{', () => {
    expect(value('"$${name} %%{x} $5 50%"', v)).toBe('${name} %{x} $5 50%');
  });

  it('keeps a heredoc exactly, including indentation and the final newline', () => {
    expect(value('<<EOT\n  Hello ${name}\n    indented\nEOT\n', v)).toBe('  Hello Ada\n    indented\n');
  });

  it('strips the smallest common indentation from a <<- heredoc, ignoring blank lines', () => {
    expect(value('<<-EOT\n    first\n      second\n\n    third\n    EOT\n', v)).toBe('first\n  second\n\nthird\n');
  });

  it('counts a tab as one character of indentation, as HCL does', () => {
    expect(value('<<-EOT\n\t\tone\n\t  two\n  EOT\n', v)).toBe('one\n two\n');
  });

  it('does not strip indentation when a line starts with an interpolation', () => {
    expect(value('<<-EOT\n${name}\n    b\n    EOT\n', v)).toBe('Ada\n    b\n');
  });

  it('strips only the literal on the same line next to a directive in a heredoc', () => {
    // `%{~` empties the indentation before it on its own line only; that line then counts as
    // unindented, so (as in HCL) no common indentation is removed from this <<- heredoc.
    const src = '<<-EOT\n  list:\n  %{~ for x in items ~}\n  - ${x}\n  %{~ endfor ~}\n\n  end\n  EOT\n';
    expect(value(src, v)).toBe('  list:\n  - a\n  - b\n  - c\n\n  end\n');
    const flush = '<<-EOT\n  list:\n%{ for x in items ~}\n  - ${x}\n%{ endfor ~}\n  end\n  EOT\n';
    expect(value(flush, v)).toBe('  list:\n  - a\n  - b\n  - c\n  end\n');
    const plain = '<<EOT\nlist:\n%{ for x in items ~}\n- ${x}\n%{ endfor ~}\nend\nEOT\n';
    expect(value(plain, v)).toBe('list:\n- a\n- b\n- c\nend\n');
  });

  it('makes the whole string Unknown when any part is Unknown', () => {
    const r = ev('"hello ${later} and ${name}"', v);
    expect(r.diagnostics).toEqual([]);
    expect(isUnknown(r.value)).toBe(true);
    expect(isUnknown(ev('"%{ if later }x%{ endif }"', v).value)).toBe(true);
  });

  it('rejects null and collections inside a string, at the interpolated expression', () => {
    expect(brief(ev('"a ${nothing}"', v).diagnostics)).toEqual(['1:10 EVAL010 Invalid template interpolation value']);
    expect(brief(ev('"a ${items}"', v).diagnostics)).toEqual(['1:10 EVAL010 Invalid template interpolation value']);
  });

  it('requires a bool condition in %{if}', () => {
    expect(brief(ev('"%{ if items }x%{ endif }"', v).diagnostics)).toEqual(['1:12 EVAL008 Incorrect condition type']);
  });
});
