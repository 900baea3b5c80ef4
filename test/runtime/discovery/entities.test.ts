import { describe, expect, it } from 'vitest';
import { recognizeEntities } from '../../../runtime/discovery/entities.js';

describe('recognizeEntities', () => {
  it.each([
    ["show me what's in ./notes/todo.md on disk", ['file']],
    ['open config.yaml and package.json', ['file']],
    ['find all *.test.ts files', ['file', 'pattern']],
    ['go to https://status.acme.io/incidents', ['url']],
    ['mail the deck to jane@ortiz.io', ['email']],
    ['what is under /var/log/ right now', ['directory']],
    ['post it in #eng-announcements', ['channel']],
    ['ask @joe about it', ['user']],
    ['run SELECT count(*) FROM orders', ['sql']],
  ])('recognizes the things named in "%s"', (query, words) => {
    expect(recognizeEntities(query).words).toEqual(words);
  });

  it('does not take domains, owner/repo names, versions or issue numbers for files or paths', () => {
    expect(recognizeEntities('add northwind.com as a company').words).toEqual([]);
    expect(recognizeEntities('open an issue in acme/api for release-2.4').words).toEqual([]);
    expect(recognizeEntities('merge PR #45').words).toEqual([]);
  });

  it("replaces a recognized thing by its word, so the thing's own words do not count", () => {
    expect(recognizeEntities('read ./notes/todo.md, then ping @ana').text).toBe('read file, then ping user');
  });

  it('marks questions, which ask to read rather than to change', () => {
    expect(recognizeEntities('which invoices are overdue').question).toBe(true);
    expect(recognizeEntities('is there a doc about VPN setup?').question).toBe(true);
    expect(recognizeEntities('void invoice 42').question).toBe(false);
  });
});
