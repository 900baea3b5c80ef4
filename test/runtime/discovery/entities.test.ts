import { describe, expect, it } from 'vitest';
import { recognizeEntities } from '../../../runtime/discovery/entities.js';

describe('recognizeEntities', () => {
  it.each([
    ["show me what's in ./notes/todo.md on disk", ['file']],
    ['open config.yaml and package.json', ['file', 'multiple']],
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

  it('does not take domains, versions or issue numbers for files or paths', () => {
    expect(recognizeEntities('add northwind.com as a company').words).toEqual([]);
    expect(recognizeEntities('tag release-2.4 today').words).toEqual([]);
    expect(recognizeEntities('merge PR #45').words).toEqual([]);
  });

  it('reads owner/name, with or without an issue number, as a repository, not as its words', () => {
    expect(recognizeEntities('open an issue in acme/web-app for release-2.4')).toMatchObject({ words: ['repository'], text: 'open an issue in repository for release-2.4' });
    expect(recognizeEntities("what's acme/api#1432 about?").words).toEqual(['repository']);
    // A path with a file extension or a leading slash stays a file or directory.
    expect(recognizeEntities('read src/app.ts').words).toEqual(['file']);
    expect(recognizeEntities('list /srv/app').words).toEqual(['directory']);
  });

  it('reads "@acme.com" and "mia@" as e-mail addresses, not as @mentions', () => {
    expect(recognizeEntities('people with an @acme.com address').words).toEqual(['email']);
    expect(recognizeEntities('a slot for mia@, jon@ and leo@').text).toBe('a slot for email, email and email');
    expect(recognizeEntities('ask @joe about it').words).toEqual(['user']);
  });

  it('takes a path whose last part has a dot in it for a file, and notes several files named at once', () => {
    expect(recognizeEntities('show /srv/app/.env.staging').words).toEqual(['file']);
    expect(recognizeEntities('show /srv/app/.env.staging and /srv/app/.env.production side by side').words).toEqual(['file', 'multiple']);
    expect(recognizeEntities('what is in /var/backups').words).toEqual(['directory']);
  });

  it('recognizes international and North American phone numbers, and nothing shorter', () => {
    expect(recognizeEntities('his new mobile is +39 347 555 0192, update it')).toMatchObject({ words: ['phone'], text: 'his new mobile is phone, update it' });
    expect(recognizeEntities('call (415) 555-0134 back').words).toEqual(['phone']);
    for (const text of ['extension 555-1234', 'invoice 12,500.00 due 2026-12-01', 'it costs 2,500 in 2024 12 34']) {
      expect(recognizeEntities(text).words).toEqual([]);
    }
  });

  it('replaces a record id by the thing its prefix abbreviates, or drops an id whose prefix says nothing', () => {
    expect(recognizeEntities('move ev_9921 to 4pm').text).toBe('move event to 4pm');
    expect(recognizeEntities('void INV-2041 please').text).toBe('void invoice please');
    expect(recognizeEntities('close fld_88 and C-4471').text).toBe('close folder and ');
    expect(recognizeEntities('discount INV-D-0101').text).toBe('discount invoice');
    // One digit is a version or a level, not an id: the word stays.
    expect(recognizeEntities('a sev-1 outage on gpt-4').text).toBe('a sev-1 outage on gpt-4');
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
