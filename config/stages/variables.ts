// Stage 1: `variable` blocks. A value comes from --var, then SQUADRON_VAR_<name>, then the default;
// a variable with none of them is still declared, and only an expression that reads it is an error.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { VariableValue } from '../graph.js';
import { blockHeader, decodeBody, NameRegistry, type BlockSchema } from '../schema.js';
import { scopeFor, type DeclaredVariable, type LoadContext } from '../scope.js';
import { loadNamedBlocks } from './namedBlocks.js';
import type { ProjectVault } from '../vault/projectVault.js';
import { MIN_SECRET_LENGTH } from '../../core/secrets.js';
import { suggestionHint } from '../suggest.js';
import { evaluateValue, readBool, readString, toStringValue } from '../values.js';

const SCHEMA: BlockSchema = { attributes: { description: {}, default: {}, secret: {} } };

/** Where command-line problems are reported (they have no position in a file). */
export const COMMAND_LINE = '<command line>';

export function loadVariables(blocks: readonly Block[], ctx: LoadContext, cliVars: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv, vault?: ProjectVault): VariableValue[] {
  const names = new NameRegistry('variable');
  const declared = loadNamedBlocks(blocks, 'variable', ctx, (block, name) => loadVariable(block, name, ctx, cliVars, env, vault), { names });
  for (const d of declared) ctx.symbols.vars.set(d.variable.name, d);
  // As in Go, every vault key is `vars.<key>` without a variable block (and, here, always a secret).
  if (vault !== undefined) declared.push(...vaultOnlyVariables(vault, ctx, names, cliVars));
  for (const given of Object.keys(cliVars)) {
    if (names.has(given) || vault?.values[given] !== undefined) continue;
    ctx.diags.push({
      severity: 'error',
      code: 'REF013',
      message: `--var ${given}: no variable "${given}" is declared`,
      hint: suggestionHint(given, [...ctx.symbols.vars.keys()]) ?? `declare it: variable "${given}" { }`,
      file: COMMAND_LINE,
      line: 0,
      column: 0,
      endLine: 0,
      endColumn: 0,
    });
  }
  return declared.map((d) => d.variable);
}

function vaultOnlyVariables(vault: ProjectVault, ctx: LoadContext, names: NameRegistry, cliVars: Readonly<Record<string, string>>): DeclaredVariable[] {
  const out: DeclaredVariable[] = [];
  const range = { file: vault.path, start: { line: 0, column: 0, offset: 0 }, end: { line: 0, column: 0, offset: 0 } };
  for (const [name, value] of Object.entries(vault.values)) {
    // Go keeps OAuth tokens in the vault under `oauth:<server>:…`: never reachable as vars.
    if (names.has(name) || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) continue;
    const given = cliVars[name];
    const variable: VariableValue = given !== undefined ? { name, secret: true, source: 'cli', value: given } : { name, secret: value.length >= MIN_SECRET_LENGTH, source: 'vault', value };
    if (!variable.secret) {
      ctx.diags.push({ severity: 'warning', code: 'VLT002', message: `vault value "${name}" is shorter than ${MIN_SECRET_LENGTH} characters, so it is not redacted (not treated as a secret)`, hint: `squadron vars set ${name} with a longer value, or declare variable "${name}" {} without secret`, file: vault.path, line: 0, column: 0, endLine: 0, endColumn: 0 });
    }
    const declared: DeclaredVariable = { variable, range: range as DeclaredVariable['range'] };
    ctx.symbols.vars.set(name, declared);
    out.push(declared);
  }
  return out;
}

function loadVariable(block: Block, name: string, ctx: LoadContext, cliVars: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv, vault?: ProjectVault): DeclaredVariable {
  const where = `variable "${name}"`;
  const scope = scopeFor(ctx, 'variable', `a variable block`);
  const body = decodeBody(block.body, SCHEMA, { what: where, header: blockHeader(block) }, ctx.diags);
  const description = readString(body.attrs.get('description'), scope, ctx.diags);
  const secret = readBool(body.attrs.get('secret'), scope, ctx.diags) ?? false;
  const defaultAttr = body.attrs.get('default');
  let defaultValue: string | undefined;
  if (defaultAttr !== undefined) {
    if (secret) {
      ctx.diags.push(
        diagnosticAt(defaultAttr.nameRange, 'error', 'SCH015', `secret variable "${name}" cannot have a default`, `remove the default and pass the value with --var ${name}=… or SQUADRON_VAR_${name}`),
      );
    } else {
      const v = evaluateValue(defaultAttr.expr, scope, ctx.diags);
      if (v !== undefined) defaultValue = toStringValue(v, defaultAttr.expr.range, ctx.diags);
    }
  }
  const variable: VariableValue = { name, secret, source: 'unset' };
  if (description !== undefined) variable.description = description;
  const fromCli = cliVars[name];
  const fromEnv = env[`SQUADRON_VAR_${name}`];
  if (fromCli !== undefined) Object.assign(variable, { value: fromCli, source: 'cli' });
  else if (fromEnv !== undefined) Object.assign(variable, { value: fromEnv, source: 'env' });
  else if (vault?.values[name] !== undefined) Object.assign(variable, { value: vault.values[name], source: 'vault', secret: vault.values[name]!.length >= MIN_SECRET_LENGTH || secret });
  else if (defaultValue !== undefined) Object.assign(variable, { value: defaultValue, source: 'default' });
  if (secret && variable.value !== undefined && variable.value.length > 0 && variable.value.length < MIN_SECRET_LENGTH) {
    const from = variable.source === 'cli' ? `--var ${name}=…` : variable.source === 'vault' ? 'the vault' : `SQUADRON_VAR_${name}`;
    ctx.diags.push(
      diagnosticAt(
        block.labelRanges[0]!,
        'error',
        'SCH018',
        `secret variable "${name}" is ${variable.value.length} character${variable.value.length === 1 ? '' : 's'} long (from ${from}); a secret must be at least ${MIN_SECRET_LENGTH} characters`,
        'secrets are replaced by [REDACTED:…] in everything Squadron stores and prints; a shorter value would match inside ordinary words, so it is refused rather than left in the clear',
      ),
    );
  }
  return { variable, range: block.labelRanges[0]! };
}
