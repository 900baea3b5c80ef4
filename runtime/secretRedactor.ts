// The secrets of a loaded config, as one redactor: what run keeps out of the database, logs and
// cassettes, and what plan keeps out of its output (secret variables and API keys).

import type { MissionGraph } from '../config/graph.js';
import { createSecretRedactor, type Redactor } from '../store/redact.js';

export function secretRedactor(graph: MissionGraph): Redactor {
  const secrets: { name: string; value: string }[] = [];
  for (const v of graph.variables) if (v.secret && v.value) secrets.push({ name: `vars.${v.name}`, value: v.value });
  for (const m of graph.models) if (m.apiKey) secrets.push({ name: `models.${m.name}.api_key`, value: m.apiKey });
  return createSecretRedactor(secrets);
}
