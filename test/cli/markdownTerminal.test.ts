// The terminal renderer on its own: line wrapping that ignores escape codes, table column sharing,
// and pages rendered plain or in colour at a given width.

import { describe, expect, test } from 'vitest';
import { renderMarkdown, shareWidth } from '../../cli/markdownTerminal.js';
import { stripAnsi, wrapLine } from '../../cli/terminalText.js';

describe('wrapLine', () => {
  test('breaks at spaces and keeps a list item indented past its bullet', () => {
    expect(wrapLine('    * alpha beta gamma delta', 20)).toEqual(['    * alpha beta', '      gamma delta']);
  });

  test('escape codes take no width', () => {
    const red = (s: string): string => `\u001b[31m${s}\u001b[0m`;
    const line = `${red('alpha')} ${red('beta')}`;
    expect(wrapLine(line, 10)).toEqual([line]);
    expect(wrapLine(`${line} ${red('gamma')}`, 10).map(stripAnsi)).toEqual(['alpha beta', 'gamma']);
  });

  test('cuts a word wider than the line and hangs continuation lines when asked', () => {
    expect(wrapLine('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapLine('  name  one two three', 16, 8)).toEqual(['  name  one two', '        three']);
  });
});

describe('shareWidth', () => {
  test('narrow columns keep their width; the widest shares the rest', () => {
    expect(shareWidth([10, 50], 100)).toEqual([10, 50]);
    expect(shareWidth([10, 50, 60], 70)).toEqual([10, 30, 30]);
  });
});

describe('renderMarkdown', () => {
  const page = '# Title\n\n| a | b |\n|---|---|\n| `x` | a long cell that has to wrap inside its column |\n\n```hcl partial\nx = 1\n```\n';

  test('plain: no escape codes, no fence, every line within the width', () => {
    const out = renderMarkdown(page, { width: 40, color: false });
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('```');
    expect(out).toContain('    x = 1');
    expect(Math.max(...out.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(40);
  });

  test('colour: HCL code is highlighted', () => {
    const out = renderMarkdown(page, { width: 40, color: true });
    expect(out).toContain('\u001b[36mx\u001b[0m');
  });
});
