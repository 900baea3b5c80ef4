// Which config values are secrets, named as their placeholders show them: secret variables
// (`vars.<name>`) and model API keys (`models.<block>.api_key`). The runtime redacts these from
// everything it stores; the CLI masks them in everything it prints, diagnostics included.

import { MIN_SECRET_LENGTH } from '../core/secrets.js';
import type { ModelBlock, VariableValue } from './graph.js';

export interface NamedSecret {
  name: string;
  value: string;
}


/**
 * Every secret variable with a value (a shorter one than MIN_SECRET_LENGTH is SCH018), and every API
 * key of at least MIN_SECRET_LENGTH characters: a shorter key that is not a secret variable ("k" for
 * a local server that wants none) is a dummy, not a credential.
 */
export function secretValues(variables: readonly VariableValue[], models: readonly Pick<ModelBlock, 'name' | 'apiKey'>[]): NamedSecret[] {
  const secrets: NamedSecret[] = [];
  for (const v of variables) if (v.secret && v.value) secrets.push({ name: `vars.${v.name}`, value: v.value });
  for (const m of models) if (m.apiKey && m.apiKey.length >= MIN_SECRET_LENGTH) secrets.push({ name: `models.${m.name}.api_key`, value: m.apiKey });
  return secrets;
}
