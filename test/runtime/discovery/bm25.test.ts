import { describe, expect, it } from 'vitest';
import { createBm25Scorer } from '../../../runtime/discovery/bm25.js';

const fields = { body: { weight: 1, b: 0.75 } };
const docs = (...bodies: string[][]) => bodies.map((body) => ({ body }));

describe('BM25F concept scoring', () => {
  it('scores a one-term concept exactly like the weighted classic BM25F sum', () => {
    const scorer = createBm25Scorer(docs(['invoic', 'draft'], ['refund'], ['invoic', 'invoic', 'send']), fields);
    const classic = scorer.score(new Map([['invoic', 1], ['refund', 0.5]]));
    const concepts = scorer.scoreConcepts([new Map([['invoic', 1]]), new Map([['refund', 0.5]])]);
    expect([...concepts]).toEqual([...classic]);
    expect(classic[1]).toBeGreaterThan(0);
  });

  it('lets the synonyms of one word saturate together instead of outweighing a second word', () => {
    // Doc 0 repeats three synonyms of "erase"; doc 1 has one of them and the other query word.
    const scorer = createBm25Scorer(docs(['delet', 'remov', 'purg', 'x', 'y'], ['delet', 'contact', 'z', 'w', 'v'], ['a', 'b', 'c', 'd', 'e']), fields);
    const erase = new Map([['eras', 1], ['delet', 0.4], ['remov', 0.4], ['purg', 0.4]]);
    const contact = new Map([['contact', 1]]);
    const asConcepts = scorer.scoreConcepts([erase, contact]);
    expect(asConcepts[1]).toBeGreaterThan(asConcepts[0] ?? 0);
    // Scored as independent terms, the synonym pile would win instead.
    const summed = scorer.scoreConcepts([...erase, ...contact].map(([t, w]) => new Map([[t, w]])));
    expect(summed[0]).toBeGreaterThan(summed[1] ?? 0);
  });

  it('never lowers a score when a document also holds a synonym of a word it already matches', () => {
    const scorer = createBm25Scorer(docs(['ticket'], ['ticket', 'case'], ['other']), fields);
    const scores = scorer.scoreConcepts([new Map([['ticket', 1], ['case', 0.3]])]);
    expect(scores[1]).toBeGreaterThan(scores[0] ?? 0);
    expect(scores[2]).toBe(0);
  });

  it('knows which terms it holds and lists them', () => {
    const scorer = createBm25Scorer(docs(['alpha', 'beta'], ['beta']), fields);
    expect(scorer.has('beta')).toBe(true);
    expect(scorer.has('gamma')).toBe(false);
    expect([...scorer.terms()].sort()).toEqual(['alpha', 'beta']);
  });
});
