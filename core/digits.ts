// A number with its digits grouped by thousands, exactly as `n.toLocaleString('en-US')` writes it.
// The first toLocaleString of a process sets up ICU's number formatting, which cost `plan`, `runs`,
// `inspect` and `resume` about 15 ms of CPU each (a tenth of Node's own start-up) for a comma or two;
// whole numbers, all these commands print, are grouped here without it.

export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
