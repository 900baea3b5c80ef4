// The loader's use of sensitivity marks: every value the config computes from a secret variable is
// registered as a secret of its own (`vars.<name>#<n>`, in load order), and an objective or a
// personality that reads a secret is a REF017 warning (the model is sent it).

import { afterAll, expect, test } from 'vitest';
import { at, codes, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const SECRETS = `variable "t" {
  secret = true
}
variable "region" {
  default = "eu-west"
}
`;

test('values computed from a secret are registered in load order, named after it; plain values and short cuts are not', () => {
  const src = `${SECRETS}tool "api" {
  implements = builtins.http.get
  inputs     = { q = string("query", true) }
  url        = "https://api.example/\${vars.region}/search?q=\${inputs.q}"
  headers    = { Authorization = "Bearer \${vars.t}", X-Key = upper(vars.t), X-Short = replace(vars.t, "/^(..).*$/", "$1"), X-Region = upper(vars.region) }
}
mcp "keys" {
  command = "node"
  env     = { KEY = base64encode("u:\${vars.t}"), REGION = vars.region }
}
${withMission('  task "a" {\n    objective = "Search."\n    tools     = [tools.api]\n  }')}`;
  const r = loadHcl(src, { vars: { t: 'Tok-3x9q' } });
  expect(codes(r).filter((c) => !c.startsWith('w:'))).toEqual([]);
  // (mcp blocks load before tool blocks.)
  expect(r.graph?.derivedSecrets).toEqual([
    { name: 'vars.t#1', value: Buffer.from('u:Tok-3x9q').toString('base64') },
    { name: 'vars.t#2', value: 'TOK-3X9Q' },
  ]);
  expect(r.secrets?.map((s) => s.name)).toEqual(['vars.t', 'models.claude.api_key', 'vars.t#1', 'vars.t#2']);
});

test('an objective and a personality that read a secret are REF017 warnings naming it, not errors', () => {
  const src = `${SECRETS}agent "helper" {
  model       = models.claude.claude_sonnet_5_5
  personality = "Sign with \${lower(vars.t)}."
}
${withMission('  task "a" {\n    objective = "Use key ${vars.t} for ${vars.region}."\n    agents    = [agents.helper]\n  }')}`;
  const r = loadHcl(src, { vars: { t: 'Tok-3x9q' } });
  expect(r.graph).toBeDefined();
  expect(codes(r).filter((c) => c.includes('REF017'))).toEqual([`w:REF017@${at(src, '"Sign with')}`, `w:REF017@${at(src, '"Use key')}`]);
  expect(r.diagnostics.find((d) => d.code === 'REF017')!.message).toContain('reads vars.t: the model is sent its value');
  // validate without the secret's value warns the same (the value is unknown, the read is not).
  const unchecked = loadHcl(src, { unsetVariables: 'unknown' });
  expect(codes(unchecked).filter((c) => c.includes('REF017'))).toEqual([`w:REF017@${at(src, '"Sign with')}`, `w:REF017@${at(src, '"Use key')}`]);
  // A value that reads no secret warns of nothing.
  expect(codes(loadHcl(withMission('  task "a" {\n    objective = "Plain."\n    tools = [builtins.utils.current_time]\n  }'))).filter((c) => c.includes('REF017'))).toEqual([]);
});
