// groupDigits writes a number exactly as toLocaleString('en-US') does (it only skips ICU for whole numbers).

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { groupDigits } from '../../core/digits.js';

describe('groupDigits', () => {
  test('matches toLocaleString("en-US") for whole numbers, fractions and the edge cases', () => {
    for (const n of [0, -0, 1, 999, 1000, -1000, 12345678, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e21, 1.5, 1234.5678, NaN, Infinity, -Infinity]) {
      expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
    fc.assert(fc.property(fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.maxSafeInteger(), fc.double()), (n) => groupDigits(n) === n.toLocaleString('en-US')));
  });
});
