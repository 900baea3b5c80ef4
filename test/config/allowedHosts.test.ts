import { afterAll, describe, expect, test } from 'vitest';
import { hostAllowance, nameAllowed, refusedAddress, specialAddressKind } from '../../core/hostPolicy.js';
import { codes, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

describe('allowed_hosts', () => {
  test('names, addresses and ranges are kept (lower case, once); anything else is SCH010 at the entry', () => {
    const ok = loadHcl(`allowed_hosts = ["LocalHost", "127.0.0.1", "10.0.0.0/8", "*.corp.example", "::1", "localhost"]\n${withMission('  task "t" {\n    objective = "x"\n    tools = [builtins.http.get]\n  }')}`);
    expect(ok.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(ok.graph?.allowedHosts).toEqual(['localhost', '127.0.0.1', '10.0.0.0/8', '*.corp.example', '::1']);
    const bad = loadHcl(`allowed_hosts = ["10.0.0.0/33", "http://x", "ok.example"]\n`);
    expect(codes(bad)).toEqual(['SCH010@1:18', 'SCH010@1:33']);
  });
});

describe('the host policy', () => {
  test('refuses loopback, private, link-local and special ranges, and nothing public', () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(specialAddressKind(a), a).toBeDefined();
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1']) expect(specialAddressKind(a), a).toBeUndefined();
  });

  test('an allowance lets listed addresses, ranges and names through', () => {
    const allow = hostAllowance(['127.0.0.1', '10.0.0.0/8', '*.corp.example', 'db.local']);
    expect(refusedAddress(allow, '127.0.0.1')).toBeUndefined();
    expect(refusedAddress(allow, '127.0.0.2')).toContain('127.0.0.2 is a loopback address');
    expect(refusedAddress(allow, '10.200.0.1')).toBeUndefined();
    expect(refusedAddress(allow, '169.254.169.254')).toContain('link-local');
    expect(nameAllowed(allow, 'api.corp.example')).toBe(true);
    expect(nameAllowed(allow, 'DB.local.')).toBe(true);
    expect(nameAllowed(allow, 'corp.example.evil')).toBe(false);
  });
});
