// The secrets of a loaded config, as one redactor: what run keeps out of the database, logs and
// cassettes; and the mask the CLI applies to everything it prints once a config is loaded.

import type { MissionGraph } from '../../config/graph.js';
import { secretValues, type NamedSecret } from '../../config/secrets.js';
import { createSecretRedactor, MIN_SECRET_LENGTH, type Redactor } from '../../store/redact.js';

/** Throws SecretValueError for a secret variable shorter than MIN_SECRET_LENGTH (the loader's SCH018). */
export function secretRedactor(graph: MissionGraph): Redactor {
  return createSecretRedactor(secretValues(graph.variables, graph.models, graph.derivedSecrets));
}

/**
 * Masks these secrets in text for display. A value too short to redact was refused by the loader
 * (SCH018, which does not print it); it is left out here rather than shredding the diagnostics.
 */
export function outputMask(secrets: readonly NamedSecret[]): (text: string) => string {
  const redactor = createSecretRedactor(secrets.filter((s) => s.value.length >= MIN_SECRET_LENGTH));
  return (text) => redactor.mask(text);
}
