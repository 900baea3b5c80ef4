import { describe, expect, it } from 'vitest';
import { stem } from '../../../runtime/discovery/stem.js';
import { analyze, compoundWords, splitWords } from '../../../runtime/discovery/tokenize.js';

describe('Porter stemmer', () => {
  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['cats', 'cat'],
    ['agreed', 'agre'],
    ['plastered', 'plaster'],
    ['motoring', 'motor'],
    ['hopping', 'hop'],
    ['filing', 'file'],
    ['happy', 'happi'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['generalization', 'gener'],
    ['electrical', 'electr'],
    ['adjustment', 'adjust'],
    ['controll', 'control'],
  ])('stems %s to %s (reference vocabulary)', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it('brings inflections of one tool word together', () => {
    const forms = ['invoice', 'invoices', 'invoiced', 'invoicing'].map(stem);
    expect(new Set(forms).size).toBe(1);
    expect(stem('scheduling')).toBe(stem('schedule'));
    expect(stem('deletion')).toBe(stem('delete'));
  });
});

describe('splitWords', () => {
  it('splits snake_case, camelCase, dotted refs and kebab-case into lower-case words', () => {
    expect(splitWords('mcp.github.create_pull_request')).toEqual(['mcp', 'github', 'create', 'pull', 'request']);
    expect(splitWords('createPullRequest')).toEqual(['create', 'pull', 'request']);
    expect(splitWords('parseHTTPDate')).toEqual(['parse', 'http', 'date']);
    expect(splitWords('time-off balance')).toEqual(['time', 'off', 'balance']);
  });

  it("drops digits-only runs, single letters and the possessive 's", () => {
    expect(splitWords("Omar's 2024 plan, a v2 draft")).toEqual(['omar', 'plan', 'v2', 'draft']);
  });
});

describe('analyze', () => {
  it('removes stop words and stems the rest', () => {
    expect(analyze('Please delete all of the invoices for me')).toEqual(['delet', 'invoic']);
  });

  it('keeps stop words and surface forms when asked', () => {
    expect(analyze('the invoices', { stemming: false, stopWords: false })).toEqual(['the', 'invoices']);
  });
});

describe('mixed-case words', () => {
  it('lists the mixed-case words of a text whole, and splitWords keeps those it is told to', () => {
    expect(compoundWords('a GitHub repo with PostgreSQL and dryRun')).toEqual(['github', 'postgresql', 'dryrun']);
    expect(splitWords('open GitHub and createPullRequest', (w) => w === 'github')).toEqual(['open', 'github', 'and', 'create', 'pull', 'request']);
    expect(analyze('the GitHub repository', { compounds: true })).toEqual(['git', 'hub', 'repositori', 'github']);
  });

  it('treats indefinite pronouns as stop words', () => {
    expect(analyze('is there anything about everyone')).toEqual([]);
  });
});
