// A unified diff of two texts by lines (`fmt --diff`): the longest common subsequence of the lines,
// then hunks with three lines of context, headed as `diff -u` heads them. Configs are small; the
// table is (lines a) × (lines b) numbers, and a pair of files too large for it is shown whole.

const CONTEXT = 3;
const MAX_CELLS = 25_000_000;

type Op = { kind: ' ' | '-' | '+'; text: string };

export function unifiedDiff(before: string, after: string, label: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = a.length * b.length > MAX_CELLS ? [...a.map((text) => ({ kind: '-' as const, text })), ...b.map((text) => ({ kind: '+' as const, text }))] : lineOps(a, b);
  const out = [`--- ${label}`, `+++ ${label} (formatted)`];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === ' ') {
      i++;
      continue;
    }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change within reach.
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    while (end < ops.length) {
      let next = end;
      while (next < ops.length && ops[next]!.kind !== ' ') next++;
      let same = next;
      while (same < ops.length && ops[same]!.kind === ' ') same++;
      end = next;
      if (same >= ops.length || same - next > 2 * CONTEXT) break;
      end = same;
    }
    const stop = Math.min(ops.length, end + CONTEXT);
    const [aStart, bStart] = positions(ops, start);
    const hunk = ops.slice(start, stop);
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${aStart + (aCount > 0 ? 1 : 0)},${aCount} +${bStart + (bCount > 0 ? 1 : 0)},${bCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.text}`);
    i = stop;
  }
  return `${out.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Lines of a and b before op `at`. */
function positions(ops: readonly Op[], at: number): [number, number] {
  let a = 0;
  let b = 0;
  for (const op of ops.slice(0, at)) {
    if (op.kind !== '+') a++;
    if (op.kind !== '-') b++;
  }
  return [a, b];
}

function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i]! });
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) ops.push({ kind: '-', text: a[i++]! });
    else ops.push({ kind: '+', text: b[j++]! });
  }
  while (i < n) ops.push({ kind: '-', text: a[i++]! });
  while (j < m) ops.push({ kind: '+', text: b[j++]! });
  return ops;
}
