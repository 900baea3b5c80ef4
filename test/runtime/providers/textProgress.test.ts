import { describe, expect, it } from 'vitest';
import { TextProgress } from '../../../runtime/providers/textProgress.js';

function feed(sink: (t: string) => void, pieces: string[]): void {
  for (const piece of pieces) sink(piece);
}

describe('TextProgress', () => {
  it('forwards every delta of a single attempt', () => {
    const out: string[] = [];
    const progress = new TextProgress((t) => out.push(t));
    feed(progress.sink(), ['ab', 'cd', 'e']);
    expect(out).toEqual(['ab', 'cd', 'e']);
  });

  it('does not repeat what a failed attempt showed when the retry produces the same text', () => {
    const out: string[] = [];
    const progress = new TextProgress((t) => out.push(t));
    feed(progress.sink(), ['Hello ', 'wor']);
    feed(progress.sink(), ['Hel', 'lo w', 'orld', '!']);
    expect(out.join('')).toBe('Hello world!');
  });

  it('stops forwarding rather than mixing texts when a retry diverges', () => {
    const out: string[] = [];
    const progress = new TextProgress((t) => out.push(t));
    feed(progress.sink(), ['Hello ', 'wor']);
    feed(progress.sink(), ['Goodbye', ' everyone']);
    expect(out.join('')).toBe('Hello wor');
  });
});
