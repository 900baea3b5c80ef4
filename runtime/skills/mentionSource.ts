// Where `$name` skill mentions may come from: the literal text the config author wrote in a task's
// objective, never the values interpolated into it. An input value (a ticket body, a user's
// question) that happens to contain `$deploy` must not load a skill — and with it the skill's
// tools — that nobody declared; a mention is a declaration, and data is not one.

import type { Expression } from '../../config/hcl/ast.js';
import type { TemplatePart } from '../../config/hcl/ast.js';

/**
 * The literal parts of an objective template (both branches of `%{if}`, the body of `%{for}`),
 * one per line, so text on either side of an interpolation never joins into one mention. An
 * objective that is not a template (a bare reference or function call) has no literal text.
 */
export function objectiveMentionText(objective: Expression): string {
  if (objective.kind !== 'Template') return '';
  const out: string[] = [];
  collect(objective.parts, out);
  return out.join('\n');
}

function collect(parts: readonly TemplatePart[], out: string[]): void {
  for (const part of parts) {
    if (part.kind === 'TemplateLiteral') out.push(part.value);
    else if (part.kind === 'TemplateIf') {
      collect(part.then, out);
      if (part.else) collect(part.else, out);
    } else if (part.kind === 'TemplateFor') collect(part.body, out);
  }
}
