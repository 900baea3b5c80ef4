// Which config values are secrets, named as their placeholders show them: secret variables
// (`vars.<name>`) and model API keys (`models.<block>.api_key`). The runtime redacts these from
// everything it stores; the CLI masks them in everything it prints, diagnostics included.

import { MIN_SECRET_LENGTH } from '../core/secrets.js';
import type { SensitiveString } from './hcl/value.js';
import type { DerivedSecret, ModelBlock, VariableValue } from './graph.js';

export interface NamedSecret {
  name: string;
  value: string;
}


/**
 * Every secret variable with a value (a shorter one than MIN_SECRET_LENGTH is SCH018), and every API
 * key of at least MIN_SECRET_LENGTH characters: a shorter key that is not a secret variable ("k" for
 * a local server that wants none) is a dummy, not a credential.
 */
export function secretValues(variables: readonly VariableValue[], models: readonly Pick<ModelBlock, 'name' | 'apiKey'>[], derived: readonly DerivedSecret[] = []): NamedSecret[] {
  const secrets: NamedSecret[] = [];
  for (const v of variables) if (v.secret && v.value) secrets.push({ name: `vars.${v.name}`, value: v.value });
  for (const m of models) if (m.apiKey && m.apiKey.length >= MIN_SECRET_LENGTH) secrets.push({ name: `models.${m.name}.api_key`, value: m.apiKey });
  secrets.push(...derived);
  return secrets;
}

/**
 * The values computed from secrets (the evaluator's marks) that are not a secret itself, named
 * `vars.<name>#<n>` in the order the load met them: a placeholder must restore to *that* value (a
 * resume recomputes it from the secret given again, in the same order), not to the secret. A value
 * shorter than MIN_SECRET_LENGTH is left out: matching it would shred ordinary text, and the secret
 * itself, which it was cut from, is redacted.
 */
export function derivedSecrets(found: readonly SensitiveString[], variables: readonly VariableValue[]): DerivedSecret[] {
  const raw = new Set(variables.filter((v) => v.secret && v.value).map((v) => v.value!));
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  const out: DerivedSecret[] = [];
  for (const { name, value } of found) {
    if (value.length < MIN_SECRET_LENGTH || raw.has(value) || seen.has(value)) continue;
    seen.add(value);
    const n = (counts.get(name) ?? 0) + 1;
    counts.set(name, n);
    out.push({ name: `${name}#${n}`, value });
  }
  return out;
}
