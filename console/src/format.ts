// Figures as the CLI shows them: durations, token counts, dollars, times.

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${Math.round(s % 60)}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

export function tokens(n: number | undefined): string {
  if (n === undefined) return '—';
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(2)}M` : n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export function dollars(n: number | undefined): string {
  return n === undefined ? '—' : `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;
}

// One formatter for every time shown: Date.prototype.toLocaleString builds a new one per call, which
// on a page of 100 runs cost more than the rest of its rendering.
const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : TIME.format(d);
}

export function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
