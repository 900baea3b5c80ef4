// The secrets of a loaded config, as one redactor: what run keeps out of the database, logs and
// cassettes, and what every command that loaded the config keeps out of its terminal output
// (secret variables and API keys).

import type { MissionGraph } from '../config/graph.js';
import { createSecretRedactor, MIN_SECRET_LENGTH, type Redactor } from '../store/redact.js';

/**
 * Throws SecretValueError for a secret variable shorter than MIN_SECRET_LENGTH (the loader reports it
 * as SCH018 first). An API key that is not a secret variable and is that short ("k" for a local
 * server that wants none) is a dummy, not a credential: it is not redacted (documented on the model
 * and variable pages).
 */
export function secretRedactor(graph: MissionGraph): Redactor {
  const secrets: { name: string; value: string }[] = [];
  for (const v of graph.variables) if (v.secret && v.value) secrets.push({ name: `vars.${v.name}`, value: v.value });
  for (const m of graph.models) if (m.apiKey && m.apiKey.length >= MIN_SECRET_LENGTH) secrets.push({ name: `models.${m.name}.api_key`, value: m.apiKey });
  return createSecretRedactor(secrets);
}
