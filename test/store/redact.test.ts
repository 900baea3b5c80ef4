import { describe, expect, it } from 'vitest';
import { createSecretRedactor, MIN_SECRET_LENGTH, SecretValueError } from '../../store/index.js';

describe('createSecretRedactor', () => {
  const redactor = createSecretRedactor([
    { name: 'vars.api_key', value: 'sk-live-123456' },
    { name: 'vars.api_key_prefix', value: 'sk-live' },
  ]);

  it('replaces a secret value with a named placeholder and restores it', () => {
    const redacted = redactor.redact('Authorization: Bearer sk-live-123456.');
    expect(redacted).toBe('Authorization: Bearer [REDACTED:vars.api_key].');
    expect(redactor.restore(redacted)).toBe('Authorization: Bearer sk-live-123456.');
  });

  it('redacts the URL-encoded (both forms) and base64 forms of a secret and restores each form', () => {
    const spaced = createSecretRedactor([{ name: 'vars.pw', value: 'pa ss/wörd+1' }]);
    const url = `https://api.example/x?key=${encodeURIComponent('pa ss/wörd+1')}&form=${new URLSearchParams({ k: 'pa ss/wörd+1' }).toString().slice(2)}`;
    const b64 = `Basic ${Buffer.from('pa ss/wörd+1').toString('base64')} ${Buffer.from('pa ss/wörd+1').toString('base64url')}`;
    const redacted = spaced.redact(`${url} ${b64}`);
    expect(redacted).toBe('https://api.example/x?key=[REDACTED:vars.pw:url]&form=[REDACTED:vars.pw:form] Basic [REDACTED:vars.pw:b64] [REDACTED:vars.pw:b64url]');
    expect(spaced.restore(redacted)).toBe(`${url} ${b64}`);
    expect(spaced.mask(`${url} ${b64}`)).toBe('https://api.example/x?key=[REDACTED:vars.pw]&form=[REDACTED:vars.pw] Basic [REDACTED:vars.pw] [REDACTED:vars.pw]');
  });

  it('redacts a secret as a URL writes it in a path (`:` `@` kept, space and non-ASCII encoded) and restores that form', () => {
    const secret = 'sé cret:4@2';
    const spaced = createSecretRedactor([{ name: 'vars.p', value: secret }]);
    const url = new URL(`https://api.example/v1/${secret}/items`).href;
    expect(url).toBe('https://api.example/v1/s%C3%A9%20cret:4@2/items');
    const redacted = spaced.redact(url);
    expect(redacted).toBe('https://api.example/v1/[REDACTED:vars.p:path]/items');
    expect(spaced.restore(redacted)).toBe(url);
    expect(spaced.mask(url)).toBe('https://api.example/v1/[REDACTED:vars.p]/items');
  });

  it('redacts a secret base64-encoded inside a longer value, whichever byte it starts at, and restores it', () => {
    const secret = 'hunter2-correct-horse';
    const r = createSecretRedactor([{ name: 'vars.pw', value: secret }]);
    for (const user of ['', 'a:', 'ab:', 'abc:', 'user:']) {
      for (const url of [false, true]) {
        const encoded = Buffer.from(`${user}${secret}!tail`).toString(url ? 'base64url' : 'base64');
        const text = `Authorization: Basic ${encoded}`;
        const redacted = r.redact(text);
        expect(redacted, `${user} ${url}`).toMatch(/\[REDACTED:vars\.pw(:b64(url)?(at[0-2])?)?\]/);
        // What is left of the encoding decodes to nothing of the secret longer than 5 characters.
        const left = redacted.replace(/\[REDACTED:[^\]]+\]/g, ' ').split(/[ :]/).filter((p) => p.length >= 4);
        for (const piece of left) {
          const decoded = Buffer.from(piece, url ? 'base64url' : 'base64').toString('latin1');
          for (let i = 0; i + 6 <= secret.length; i++) expect(decoded.includes(secret.slice(i, i + 6)), `${user} ${url}: ${piece}`).toBe(false);
        }
        expect(r.restore(redacted)).toBe(text);
      }
    }
  });

  it('prefers the longest secret when one value contains another', () => {
    expect(redactor.redact('sk-live-123456 and sk-live-999')).toBe('[REDACTED:vars.api_key] and [REDACTED:vars.api_key_prefix]-999');
  });

  it('refuses a value shorter than four characters instead of leaving it in the clear', () => {
    expect(() => createSecretRedactor([{ name: 'vars.pin', value: 'abc' }])).toThrow(SecretValueError);
    expect(() => createSecretRedactor([{ name: 'vars.pin', value: 'abc' }])).toThrow('the secret vars.pin is shorter than 4 characters');
    // Four characters are redacted; an empty value has nothing to hide.
    expect(createSecretRedactor([{ name: 'vars.pin', value: '1234' }, { name: 'vars.none', value: '' }]).redact('pin 1234')).toBe('pin [REDACTED:vars.pin]');
  });

  it('redacts a value escaped two and three times (JSON text inside a JSON string) and restores each level', () => {
    const quoted = createSecretRedactor([{ name: 'vars.pw', value: 'p"ss\\wörd' }]);
    const once = JSON.stringify({ token: 'p"ss\\wörd' });
    const twice = JSON.stringify({ result: once });
    const thrice = JSON.stringify({ outer: twice });
    for (const text of [once, twice, thrice]) {
      const redacted = quoted.redact(text);
      expect(redacted).not.toMatch(/rd/);
      expect(quoted.restore(redacted)).toBe(text);
    }
  });

  it('redacts values and keys of a structure before it is serialised, and restores them', () => {
    const quoted = createSecretRedactor([{ name: 'vars.pw', value: 'p"ss\\wörd' }]);
    const value = { ['p"ss\\wörd']: ['x p"ss\\wörd', { deep: JSON.stringify({ a: JSON.stringify('p"ss\\wörd') }) }], n: 1, b: null };
    const redacted = quoted.redactValue(value);
    expect(JSON.stringify(redacted)).not.toMatch(/rd/);
    expect(redacted).toEqual({ '[REDACTED:vars.pw]': ['x [REDACTED:vars.pw]', { deep: '{"a":"\\"[REDACTED:vars.pw:json2]\\""}' }], n: 1, b: null });
    expect(quoted.restoreValue(redacted)).toEqual(value);
  });

  it('masks for display without escaping placeholders, so masking twice changes nothing', () => {
    const once = redactor.mask('key sk-live-123456, literal [REDACTED:x]');
    expect(once).toBe('key [REDACTED:vars.api_key], literal [REDACTED:x]');
    expect(redactor.mask(once)).toBe(once);
    // Escaped forms show as the plain placeholder: the escape level matters only to restore.
    const quoted = createSecretRedactor([{ name: 'vars.pw', value: 'p"ss-1' }]);
    expect(quoted.mask(JSON.stringify({ a: JSON.stringify({ b: 'p"ss-1' }) }))).toBe('{"a":"{\\"b\\":\\"[REDACTED:vars.pw]\\"}"}');
  });

  it('redacts the JSON-escaped form of a value and restores valid JSON', () => {
    const quoted = createSecretRedactor([{ name: 'vars.pw', value: 'p"ss\\wörd' }]);
    const json = JSON.stringify({ password: 'p"ss\\wörd' });
    const redacted = quoted.redact(json);
    expect(redacted).not.toContain('ss\\\\w');
    expect(redacted).toBe('{"password":"[REDACTED:vars.pw:json]"}');
    expect(JSON.parse(quoted.restore(redacted))).toEqual({ password: 'p"ss\\wörd' });
    // The ASCII-only escaping other JSON encoders use is caught too.
    expect(quoted.redact('"p\\"ss\\\\w\\u00f6rd"')).toBe('"[REDACTED:vars.pw:json]"');
  });

  it('never turns a literal placeholder in the input into a secret on restore', () => {
    const text = 'the model wrote [REDACTED:vars.api_key] itself';
    const redacted = redactor.redact(text);
    expect(redactor.restore(redacted)).toBe(text);
    const noSecrets = createSecretRedactor([]);
    expect(noSecrets.restore(noSecrets.redact(text))).toBe(text);
  });

  it('leaves a placeholder whose secret is no longer supplied', () => {
    const later = createSecretRedactor([{ name: 'vars.other', value: 'zzzzzz' }]);
    expect(later.restore('key [REDACTED:vars.api_key]')).toBe('key [REDACTED:vars.api_key]');
  });

  it('uses the name verbatim, so other kinds of secrets keep their own reference', () => {
    const keys = createSecretRedactor([{ name: 'models.anthropic.api_key', value: 'sk-ant-xyz' }]);
    expect(keys.redact('x-api-key: sk-ant-xyz')).toBe('x-api-key: [REDACTED:models.anthropic.api_key]');
    expect(keys.restore('[REDACTED:models.anthropic.api_key]')).toBe('sk-ant-xyz');
  });

  it('rejects a name that could not be read back from a placeholder', () => {
    expect(() => createSecretRedactor([{ name: 'vars.a]b', value: 'secret-value' }])).toThrow(/cannot be used in a placeholder/);
  });

  it('restores the current value of a rotated secret', () => {
    const stored = createSecretRedactor([{ name: 'vars.token', value: 'old-token-1' }]).redact('use old-token-1');
    expect(createSecretRedactor([{ name: 'vars.token', value: 'new-token-2' }]).restore(stored)).toBe('use new-token-2');
  });

  it('does not re-scan placeholders it inserted (a secret equal to part of a placeholder)', () => {
    const tricky = createSecretRedactor([
      { name: 'vars.a', value: 'REDACTED' },
      { name: 'vars.b', value: 'vars' },
      { name: 'vars.c', value: 'hunter22' },
    ]);
    const redacted = tricky.redact('hunter22 vars');
    expect(redacted).toBe('[REDACTED:vars.c] [REDACTED:vars.b]');
    expect(tricky.restore(redacted)).toBe('hunter22 vars');
  });
});

describe('restoreJson', () => {
  const redactor = createSecretRedactor([{ name: 'vars.pw', value: 'p"ss\\wörd-0123' }]);

  it('equals parsing and then restoring, with placeholders, escapes, or neither', () => {
    const values = [
      { token: 'p"ss\\wörd-0123', list: ['p"ss\\wörd-0123', 1, null], 'p"ss\\wörd-0123': true },
      { text: 'a literal [REDACTED:vars.pw] typed by someone', nested: [{ deep: 'x' }] },
      { control: 'a \u0001 and a \u001f', plain: 'nothing to restore', n: 3.5 },
      ['just', 'strings'],
    ];
    for (const value of values) {
      const stored = JSON.stringify(redactor.redactValue(value));
      expect(redactor.restoreJson(stored)).toEqual(redactor.restoreValue(JSON.parse(stored)));
      expect(redactor.restoreJson(stored)).toEqual(value);
    }
  });

  it('restores a placeholder spelled with \\u escapes (JSON written by another program)', () => {
    expect(redactor.restoreJson('{"t":"\\u005bREDACTED:vars.pw]"}')).toEqual({ t: 'p"ss\\wörd-0123' });
  });
});
