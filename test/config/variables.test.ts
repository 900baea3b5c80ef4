// Variables: --var wins over SQUADRON_VAR_<name>, which wins over the default; secrets never have a
// default; a --var for an undeclared variable is an error.

import { afterAll, expect, test } from 'vitest';
import { at, codes, loadHcl, removeTempProjects } from './support.js';

afterAll(removeTempProjects);

const src = `variable "region" {\n  description = "Where"\n  default     = "eu"\n}\nvariable "token" {\n  secret = true\n}\nvariable "count" {\n  default = 3\n}\n`;

test('values come from --var, then SQUADRON_VAR_<name>, then the default', () => {
  const r = loadHcl(src, { vars: { region: 'us' }, env: { SQUADRON_VAR_region: 'ap', SQUADRON_VAR_token: 't0k3n' } });
  expect(r.graph!.variables).toEqual([
    { name: 'region', description: 'Where', value: 'us', secret: false, source: 'cli' },
    { name: 'token', value: 't0k3n', secret: true, source: 'env' },
    { name: 'count', value: '3', secret: false, source: 'default' },
  ]);
});

test('a variable with no value is declared but unset (not an error until used)', () => {
  const r = loadHcl(src);
  expect(r.graph!.variables[1]).toEqual({ name: 'token', secret: true, source: 'unset' });
});

test('a secret variable with a default is SCH015 at the default', () => {
  const s = `variable "token" {\n  secret  = true\n  default = "abc"\n}\n`;
  const r = loadHcl(s);
  expect(codes(r)).toEqual([`SCH015@${at(s, 'default')}`]);
});

test('a secret value shorter than 4 characters is SCH018 at the variable, without the value', () => {
  const s = `variable "pin" {\n  secret = true\n}\nvariable "code" {}\n`;
  const fromCli = loadHcl(s, { vars: { pin: 'a"\\', code: 'ab' } });
  expect(codes(fromCli)).toEqual([`SCH018@${at(s, '"pin"')}`]);
  expect(fromCli.diagnostics[0]!.message).toBe('secret variable "pin" is 3 characters long (from --var pin=…); a secret must be at least 4 characters');
  expect(fromCli.diagnostics[0]!.hint).toContain('refused rather than left in the clear');
  expect(codes(loadHcl(s, { env: { SQUADRON_VAR_pin: 'x' } }))).toEqual([`SCH018@${at(s, '"pin"')}`]);
  // Four characters, an empty value, or no value at all (validate without secrets) are fine.
  const errors = (r: ReturnType<typeof loadHcl>): string[] => codes(r).filter((c) => !c.startsWith('w:'));
  expect(errors(loadHcl(s, { vars: { pin: 'abcd' } }))).toEqual([]);
  expect(errors(loadHcl(s, { vars: { pin: '' } }))).toEqual([]);
  expect(errors(loadHcl(s))).toEqual([]);
});

test('a list default is SCH007 (variables are strings)', () => {
  const s = `variable "x" {\n  default = ["a"]\n}\n`;
  expect(codes(loadHcl(s))).toEqual([`SCH007@${at(s, '["a"]')}`]);
});

test('a --var for an undeclared variable is REF013 with a suggestion', () => {
  const r = loadHcl(src, { vars: { regoin: 'x' } });
  expect(codes(r)).toEqual(['REF013@0:0']);
  expect(r.diagnostics[0]!.file).toBe('<command line>');
  expect(r.diagnostics[0]!.hint).toBe('did you mean region?');
});
