import { describe, expect, it } from 'vitest';
import { createSpellingIndex } from '../../../runtime/discovery/fuzzy.js';
import { queryConcepts, type QueryOptions } from '../../../runtime/discovery/queryConcepts.js';
import { stem } from '../../../runtime/discovery/stem.js';

const options: QueryOptions = {
  stemming: true,
  expansion: true,
  supplements: true,
  expansionWeight: 0.3,
  actions: true,
  actionWeight: 0.45,
  typos: true,
  typoWeight: 0.7,
  entities: true,
  questionWeight: 0.3,
  phraseWeight: 0.5,
};
const vocabulary = ['ticket', 'invoic', 'github', 'refund', 'payment'];
const index = { has: (t: string) => vocabulary.includes(t), spellings: createSpellingIndex(vocabulary) };
const concepts = (query: string, o: Partial<QueryOptions> = {}) => queryConcepts(query, index, { ...options, ...o });
const conceptOf = (query: string, word: string, o: Partial<QueryOptions> = {}) => concepts(query, o).find((c) => c.get(stem(word)) === 1);

describe('queryConcepts', () => {
  it('gives each content word its own concept, the typed word at weight 1 and its synonyms lower', () => {
    const client = conceptOf('email the client', 'client');
    expect(client?.get(stem('customer'))).toBeCloseTo(0.3);
    expect(concepts('the of and')).toEqual([]);
  });

  it('adds action classes as a separate concept, only for a word in a verb slot', () => {
    expect(concepts('delete the invoice').some((c) => c.has('~remove'))).toBe(true);
    expect(concepts('the delete button').some((c) => c.has('~remove'))).toBe(false);
  });

  it('corrects a misspelt word to the index vocabulary, but not a real word', () => {
    expect(conceptOf('open a tiket', 'tiket')?.get('ticket')).toBeCloseTo(0.7);
    expect(conceptOf('refund the paymnet', 'paymnet')?.get('payment')).toBeCloseTo(0.7);
    // "ticker" is an English word: it is not taken for a typo of "ticket".
    expect(conceptOf('show the ticker', 'ticker')?.has('ticket')).toBe(false);
    expect(conceptOf('open a tiket', 'tiket', { typos: false })?.has('ticket')).toBe(false);
  });

  it('stops correcting after eight unknown words, so a run of noise costs little', () => {
    const noise = 'qzxa qzxb qzxc qzxd qzxe qzxf qzxg qzxh';
    expect(conceptOf(`${noise} tiket`, 'tiket')?.has('ticket')).toBe(false);
    expect(conceptOf(`${noise.split(' ').slice(1).join(' ')} tiket`, 'tiket')?.has('ticket')).toBe(true);
  });

  it('corrects a misspelt everyday word to its thesaurus entry', () => {
    const holiday = conceptOf('book a holliday', 'holliday');
    expect(holiday?.get(stem('vacation'))).toBeGreaterThan(0);
  });

  it('keeps a brand name whole when the index knows it ("GitHub" → github)', () => {
    expect(conceptOf('open a GitHub issue', 'github')).toBeDefined();
    expect(concepts('open a GitHub issue').some((c) => c.has('git'))).toBe(false);
    // A mixed-case word the index does not know is split as an identifier.
    expect(concepts('call createPullRequest').some((c) => c.get('pull') === 1)).toBe(true);
  });

  it('replaces a file path by "file" and adds a read marker for a question', () => {
    const path = concepts('open ./notes/todo.md');
    expect(path.some((c) => c.get('file') === 1)).toBe(true);
    expect(path.some((c) => c.has('todo'))).toBe(false);
    expect(concepts('which invoices are overdue?').some((c) => c.get('~get') === 0.3)).toBe(true);
    expect(concepts('which invoices are overdue?', { entities: false }).some((c) => c.has('~get'))).toBe(false);
  });

  it('pairs consecutive content words of one clause for phrase matching', () => {
    const pairs = concepts('merge the pull request, then refund payment').filter((c) => [...c.keys()].some((k) => k.includes('_')));
    expect(pairs.map((c) => [...c.keys()][0])).toEqual(['merg_pull', 'pull_request', 'refund_payment']);
    expect(concepts('pull request', { phraseWeight: 0 }).some((c) => c.has('pull_request'))).toBe(false);
  });
});
