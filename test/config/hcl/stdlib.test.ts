// The standard library: each function's behaviour on ordinary input and the error it reports on
// bad input (as an EVAL006 diagnostic at the offending argument).

import { describe, expect, it } from 'vitest';
import { stdlibFunctions } from '../../../config/hcl/index.js';
import { brief, ev, value } from './support/helpers.js';

describe('stdlib: strings', () => {
  it('changes case and trims', () => {
    expect(value('upper("abc é")')).toBe('ABC É');
    expect(value('lower("ABC")')).toBe('abc');
    expect(value('trimspace("  \\t hi \\n ")')).toBe('hi');
    expect(value('title("hello big-world")')).toBe('Hello Big-World');
  });

  it('joins and splits', () => {
    expect(value('join(", ", ["a", "b"], ["c"])')).toBe('a, b, c');
    expect(value('join("-", [1, true])')).toBe('1-true');
    expect(value('split(",", "a,b,,c")')).toEqual(['a', 'b', '', 'c']);
    expect(brief(ev('join(",", ["a", null])').diagnostics)).toEqual(['1:15 EVAL006 Error in function call']);
  });

  it('replaces substrings and /regex/ patterns', () => {
    expect(value('replace("a-b-c", "-", "+")')).toBe('a+b+c');
    expect(value('replace("v1.2.3", "/(\\\\d+)\\\\.(\\\\d+)/", "$2.$1")')).toBe('v2.1.3');
  });

  it('replaces by RE2 pattern as Go does: empty matches, $n, ${n}, $name and $$', () => {
    expect(value(String.raw`replace("baaac", "/a*/", "X")`)).toBe('XbXcX');
    expect(value(String.raw`replace("a😀", "//", "-")`)).toBe('-a-😀-');
    expect(value(String.raw`replace("ab", "/(a)/", "$1x")`)).toBe('b');
    expect(value('replace("ab", "/(a)/", "$${1}x")')).toBe('axb');
    expect(value(String.raw`replace("ab", "/(a)/", "$$1")`)).toBe('$1b');
    expect(value(String.raw`replace("john smith", "/(?P<first>\\w+) (?P<last>\\w+)/", "$last, $first")`)).toBe('smith, john');
    expect(value(String.raw`replace("a.b", "/./", "x")`)).toBe('xxx');
    expect(value(String.raw`replace("a.b", ".", "x")`)).toBe('axb');
  });

  it('runs a catastrophic-backtracking pattern in linear time', () => {
    const evil = `"${'a'.repeat(5000)}!"`;
    expect(value(`replace(${evil}, "/(a+)+$/", "x")`)).toBe(`${'a'.repeat(5000)}!`);
    expect(value(`length(regexall("(a|aa)+$", ${evil}))`)).toBe(0);
  });

  it('regex returns the match, a list of groups or an object of named groups', () => {
    expect(value(String.raw`regex("[a-z]+", "53453453.345345aaabbbccc23454")`)).toBe('aaabbbccc');
    expect(value(String.raw`regex("(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)", "2019-02-01")`)).toEqual(['2019', '02', '01']);
    expect(value(String.raw`regex("^(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?", "https://terraform.io/docs/")`)).toEqual({
      scheme: 'https',
      authority: 'terraform.io',
    });
    expect(value(String.raw`regex("(a)(b)?", "a")`)).toEqual(['a', null]);
    expect(value(String.raw`regex("(?i)HELLO", "say hello")`)).toBe('hello');
  });

  it('regexall returns every match, or an empty list', () => {
    expect(value(String.raw`regexall("[a-z]+", "1234abcd5678efgh9")`)).toEqual(['abcd', 'efgh']);
    expect(value(String.raw`regexall("(\\w)=(\\d)", "a=1 b=2")`)).toEqual([['a', '1'], ['b', '2']]);
    expect(value(String.raw`regexall("x*", "ab")`)).toEqual(['', '', '']);
    expect(value(String.raw`regexall("[a-z]+", "123")`)).toEqual([]);
  });

  it('reports a bad pattern, mixed groups and no match as errors at the argument', () => {
    const bad = ev(String.raw`regex("(a", "x")`).diagnostics;
    expect(brief(bad)).toEqual(['1:11 EVAL006 Error in function call']);
    expect(bad[0]!.message).toBe('Error in function call: Call to function "regex" failed: invalid regular expression: missing closing ): `(a`.');
    expect(ev(String.raw`regex("(?=a)", "x")`).diagnostics[0]!.message).toContain('invalid or unsupported Perl syntax');
    expect(brief(ev(String.raw`regexall("\\1", "x")`).diagnostics)).toEqual(['1:14 EVAL006 Error in function call']);
    expect(ev(String.raw`regex("(a)(?P<n>b)", "ab")`).diagnostics[0]!.message).toContain('cannot mix both named and unnamed capture groups');
    const none = ev(String.raw`regex("[a-z]+", "123")`).diagnostics;
    expect(brief(none)).toEqual(['1:21 EVAL006 Error in function call']);
    expect(none[0]!.message).toContain('pattern did not match any part of the given string');
    expect(brief(ev(String.raw`replace("x", "/a{1001}/", "")`).diagnostics)).toEqual(['1:18 EVAL006 Error in function call']);
  });

  it('formats with %s %d %q %v %f, widths and flags', () => {
    expect(value('format("%s=%d %q %v %.2f", "a", 3, "q\\"", [1, "x"], 3.14159)')).toBe('a=3 "q\\"" [1,"x"] 3.14');
    expect(value('format("%5s|%-5s|%05d|%+d|%%", "ab", "cd", 42, 7)')).toBe('   ab|cd   |00042|+7|%');
    expect(value('format("%[2]s %[1]s", "world", "hello")')).toBe('hello world');
    expect(value('format("%v %v", true, null)')).toBe('true null');
  });

  it('rejects format verbs without arguments and %d of a fraction', () => {
    expect(brief(ev('format("%s %s", "a")').diagnostics)).toEqual(['1:12 EVAL006 Error in function call']);
    expect(ev('format("%d", 1.5)').diagnostics[0]!.message).toContain('whole number');
  });
});

describe('stdlib: collections', () => {
  it('measures length of strings in characters, lists and objects', () => {
    expect(value('length("héllo😀")')).toBe(6);
    expect(value('length([1, 2])')).toBe(2);
    expect(value('length({a = 1})')).toBe(1);
  });

  it('concatenates lists and merges objects, later keys winning', () => {
    expect(value('concat([1], [], [2, 3])')).toEqual([1, 2, 3]);
    expect(value('merge({a = 1, b = 1}, null, {b = 2})')).toEqual({ a: 1, b: 2 });
  });

  it('lists keys and values in key order', () => {
    expect(value('keys({b = 1, a = 2})')).toEqual(['a', 'b']);
    expect(value('values({b = 1, a = 2})')).toEqual([2, 1]);
  });

  it('tests membership with deep equality', () => {
    expect(value('contains(["a", {x = 1}], {x = 1})')).toBe(true);
    expect(value('contains([1], "1")')).toBe(false);
  });

  it('looks up keys with and without a default', () => {
    expect(value('lookup({a = 1}, "a")')).toBe(1);
    expect(value('lookup({a = 1}, "b", "dflt")')).toBe('dflt');
    expect(brief(ev('lookup({a = 1}, "b")').diagnostics)).toEqual(['1:21 EVAL006 Error in function call']);
  });

  it('picks elements (wrapping around) and slices', () => {
    expect(value('element(["a", "b"], 3)')).toBe('b');
    expect(value('slice([1, 2, 3, 4], 1, 3)')).toEqual([2, 3]);
    expect(brief(ev('slice([1], 0, 5)').diagnostics)).toEqual(['1:19 EVAL006 Error in function call']);
  });

  it('coalesces to the first non-null, non-empty value', () => {
    expect(value('coalesce(null, "", "x", "y")')).toBe('x');
    expect(ev('coalesce(null, "")').diagnostics).toHaveLength(1);
  });
});

describe('stdlib: numbers, encoding and conversion', () => {
  it('computes min, max, abs, floor and ceil', () => {
    expect(value('min(3, 1, 2)')).toBe(1);
    expect(value('max([4, 9]...)')).toBe(9);
    expect(value('abs(-2.5)')).toBe(2.5);
    expect(value('floor(1.7)')).toBe(1);
    expect(value('ceil(1.2)')).toBe(2);
  });

  it('encodes JSON with sorted keys and decodes it', () => {
    expect(value('jsonencode({b = [1, true], a = null})')).toBe('{"a":null,"b":[1,true]}');
    expect(value('jsondecode("{\\"x\\": [1, 2]}")')).toEqual({ x: [1, 2] });
    expect(brief(ev('jsondecode("{oops")').diagnostics)).toEqual(['1:16 EVAL006 Error in function call']);
  });

  it('converts between strings, numbers and bools', () => {
    expect(value('tostring(12)')).toBe('12');
    expect(value('tonumber("1e3")')).toBe(1000);
    expect(value('tobool("true")')).toBe(true);
    expect(value('tostring(null)')).toBe(null);
    expect(ev('tonumber("twelve")').diagnostics[0]!.message).toBe('Error in function call: Call to function "tonumber" failed: cannot convert "twelve" to number.');
    expect(ev('tobool(1)').diagnostics).toHaveLength(1);
  });

  it('urlencode encodes as Terraform does (query escaping: space as +, reserved characters as %XX)', () => {
    expect(value('urlencode("a b&c=d/é?#!")')).toBe('a+b%26c%3Dd%2F%C3%A9%3F%23%21');
  });

  it('base64encode and base64decode as Terraform: UTF-8 bytes in standard base64; bad input is EVAL006', () => {
    expect(value('base64encode("user:sé")')).toBe(Buffer.from('user:sé').toString('base64'));
    expect(value('base64decode(base64encode("a\\u00e9b"))')).toBe('aéb');
    expect(brief(ev('base64decode("not base64!")').diagnostics)).toEqual(['1:18 EVAL006 Error in function call']);
    expect(brief(ev('base64decode("/w==")').diagnostics)).toEqual(['1:18 EVAL006 Error in function call']);
  });

  it('offers exactly the documented set of functions', () => {
    expect(Object.keys(stdlibFunctions).sort()).toEqual(
      ['abs', 'base64decode', 'base64encode', 'ceil', 'coalesce', 'concat', 'contains', 'element', 'floor', 'format', 'join', 'jsondecode', 'jsonencode', 'keys', 'length', 'lookup', 'lower', 'max', 'merge', 'min', 'regex', 'regexall', 'replace', 'slice', 'split', 'title', 'tobool', 'tonumber', 'tostring', 'trimspace', 'upper', 'urlencode', 'values'].sort(),
    );
  });
});
