// Text laid out for a terminal: the visible width of a string that holds escape codes, and line
// wrapping that keeps indentation. Free of dependencies, so the docs index can wrap without loading
// the Markdown renderer.

// CSI sequences (colours) and OSC sequences (hyperlinks).
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export function visibleLength(text: string): number {
  return [...stripAnsi(text)].length;
}

/**
 * Breaks a line wider than `width` at spaces (inside a word only when the word alone is too wide).
 * Continuation lines keep the line's indentation, past a list bullet (or `hang` columns when
 * given); escape codes take no width.
 */
export function wrapLine(line: string, width: number, hang?: number): string[] {
  if (visibleLength(line) <= width) return [line];
  const plain = stripAnsi(line);
  const lead = hang ?? /^(\s*)((?:[*-]|\d+\.)\s+)?/.exec(plain)![0].length;
  const indent = ' '.repeat(Math.min(lead, Math.floor(width / 2)));
  // Units: escape codes (no width) and single characters.
  const units = line.match(new RegExp(`${ANSI.source}|[\\s\\S]`, 'gu')) ?? [];
  const lines: string[] = [];
  let current = '';
  let column = 0;
  let word = '';
  let wordWidth = 0;
  const flushWord = (): void => {
    if (wordWidth === 0) {
      current += word;
      word = '';
      return;
    }
    if (column + wordWidth > width && column > indent.length) {
      lines.push(current.trimEnd());
      current = indent;
      column = indent.length;
    }
    // A word wider than a whole line is cut.
    for (const unit of word.match(new RegExp(`${ANSI.source}|[\\s\\S]`, 'gu')) ?? []) {
      const w = unit.startsWith('\u001b') ? 0 : 1;
      if (column + w > width) {
        lines.push(current);
        current = indent;
        column = indent.length;
      }
      current += unit;
      column += w;
    }
    word = '';
    wordWidth = 0;
  };
  for (const unit of units) {
    if (unit === ' ') {
      flushWord();
      if (column < width) {
        current += ' ';
        column += 1;
      }
      continue;
    }
    word += unit;
    if (!unit.startsWith('\u001b')) wordWidth += 1;
  }
  flushWord();
  if (stripAnsi(current).trim() !== '') lines.push(current.trimEnd());
  return lines;
}
