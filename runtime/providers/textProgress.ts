// Live text progress across retried attempts. A retry restarts the whole request, so its text
// starts again from the beginning. What a failed attempt already showed is never repeated: a retry
// stays silent while it re-produces the shown text and continues from there; if its text diverges
// (models rarely repeat themselves exactly), progress stops for this call rather than show a
// garbled mix. The response itself is always the successful attempt's, whole.

export class TextProgress {
  private shown = '';
  private diverged = false;

  constructor(private readonly forward: ((text: string) => void) | undefined) {}

  /** A fresh sink for one attempt. */
  sink(): (text: string) => void {
    let seen = 0;
    let leading = false;
    return (text: string): void => {
      if (!this.forward || this.diverged || text === '') return;
      if (leading) {
        this.shown += text;
        this.forward(text);
        return;
      }
      // Still re-producing what an earlier attempt showed: compare only the overlapping slice.
      const overlap = Math.min(text.length, this.shown.length - seen);
      if (text.slice(0, overlap) !== this.shown.slice(seen, seen + overlap)) {
        this.diverged = true;
        return;
      }
      seen += text.length;
      if (seen <= this.shown.length) return;
      leading = true;
      const fresh = text.slice(overlap);
      this.shown += fresh;
      this.forward(fresh);
    };
  }
}
