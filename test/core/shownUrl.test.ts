// A URL as error messages show it: no query, fragment or user info, and with a mask, no secret in
// the host or the path, however the path encodes it.

import { describe, expect, it } from 'vitest';
import { shownUrl, shownUrlText } from '../../core/shownUrl.js';
import { createSecretRedactor } from '../../store/redact.js';

const mask = createSecretRedactor([
  { name: 'vars.p', value: 'sé cret:42' },
  { name: 'vars.p#1', value: 'SÉ CRET:42' },
]).mask;

describe('shownUrl', () => {
  it('cuts the query, the fragment and the user info', () => {
    expect(shownUrl(new URL('https://u:pw@api.example/v1/items?key=s#x'))).toBe('https://***@api.example/v1/items?…');
  });

  it('masks a secret and a computed value in the path, percent-encoded by the URL or by encodeURIComponent', () => {
    expect(shownUrl(new URL('https://api.example/v1/sé cret:42/SÉ CRET:42/x?k=1'), mask)).toBe('https://api.example/v1/[REDACTED:vars.p]/[REDACTED:vars.p#1]/x?…');
    expect(shownUrl(new URL(`https://api.example/v1/${encodeURIComponent('sé cret:42')}/x`), mask)).toBe('https://api.example/v1/[REDACTED:vars.p]/x');
  });

  it('masks the text of a URL that does not parse', () => {
    expect(shownUrlText('http://[bad/sé cret:42/x?key=1', mask)).toBe('http://[bad/[REDACTED:vars.p]/x?…');
  });
});
