import { describe, expect, it } from 'vitest';
import { configChanges, configFingerprint, missingSecrets, resumeEnv, runVariables } from '../../../runtime/run/runConfig.js';

const files = (entries: Record<string, string>) => configFingerprint('/p', new Map(Object.entries(entries).map(([k, v]) => [`/p/${k}`, v])));

describe('runConfig', () => {
  it('hashes each file by its path relative to the project root, in path order', () => {
    const fp = files({ 'b.hcl': 'x', 'skills/s/SKILL.md': 'y', 'a.hcl': 'x' });
    expect(Object.keys(fp.files)).toEqual(['a.hcl', 'b.hcl', 'skills/s/SKILL.md']);
    expect(fp.files['a.hcl']).toBe(fp.files['b.hcl']);
    expect(fp.files['a.hcl']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stores non-secret values and only the names of secret variables that had a value', () => {
    expect(
      runVariables([
        { name: 'port', value: '1', secret: false, source: 'cli' },
        { name: 'unset', secret: false, source: 'unset' },
        { name: 'key', value: 'sk-123456', secret: true, source: 'env' },
        { name: 'unused_secret', secret: true, source: 'unset' },
      ]),
    ).toEqual({ values: { port: '1' }, secrets: ['key'] });
  });

  it('names every change: files added, removed, modified; variables changed, set, unset', () => {
    const before = { config: files({ 'a.hcl': '1', 'b.hcl': '2' }), variables: { values: { port: '1', gone: 'x' }, secrets: [] } };
    const after = { config: files({ 'a.hcl': '1!', 'c.hcl': '3' }), variables: { values: { port: '2', fresh: 'y' }, secrets: [] } };
    expect(configChanges(before, after)).toEqual([
      'file a.hcl modified',
      'file b.hcl removed',
      'file c.hcl added',
      'variable fresh set to "y" (the run had no value)',
      'variable gone no longer has a value (the run used "x")',
      'variable port changed from "1" to "2"',
    ]);
    expect(configChanges(before, before)).toEqual([]);
  });

  it('lists the secrets given neither by --var nor the environment; stored values win over the environment', () => {
    const stored = { values: { port: '1' }, secrets: ['a', 'b', 'c'] };
    expect(missingSecrets(stored, { a: 'x' }, { SQUADRON_VAR_b: 'y' })).toEqual(['c']);
    expect(resumeEnv(stored, { SQUADRON_VAR_port: '2', HOME: '/h' })).toEqual({ SQUADRON_VAR_port: '1', HOME: '/h' });
    expect(resumeEnv(undefined, { SQUADRON_VAR_port: '2' })).toEqual({ SQUADRON_VAR_port: '2' });
  });
});
