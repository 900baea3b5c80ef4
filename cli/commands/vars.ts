// `squadron vars list|get|set|delete`: the project's vault (`.squadron/vars.vault`, AES-256-GCM with
// an Argon2id key from SQUADRON_VAULT_KEY or `.squadron/vault.key`, the file format Go Squadron
// writes). Every value in it is `vars.<name>` in the config without a variable block, and a secret:
// `list` never prints values, `get` prints one only with --reveal, and `set` without a value reads
// it from standard input (so it stays out of shell history).

import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { readVaultValues, writeVaultValues } from '../../api/vault.js';
import { CliError, EXIT, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';

interface VaultFlags {
  config: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function register(program: Command, io: CliIo): void {
  const vars = program.command('vars').description('Manage the values in the project\'s vault (encrypted; each is vars.<name> in the config)');
  const withConfig = (c: Command): Command => c.option('-c, --config <path>', 'the project: an .hcl file or a directory of them', '.');
  withConfig(vars.command('list').description('List the names of the values in the vault (never the values)').option('--json', JSON_FLAG_HELP)).action((flags: VaultFlags & { json?: boolean }) => {
    const names = Object.keys(open(io, flags)).sort();
    if (flags.json === true) return writeJson(io, { variables: names.map((name) => ({ name, secret: true })) });
    if (names.length === 0) io.stdout.write('No variables set\n');
    for (const name of names) io.stdout.write(`${name}=********\n`);
  });
  withConfig(vars.command('get').description('Say whether a value is set; print it only with --reveal').argument('<name>').option('--reveal', 'print the secret value itself')).action(
    (name: string, flags: VaultFlags & { reveal?: boolean }) => {
      const value = open(io, flags)[name];
      if (value === undefined) throw new CliError(`variable "${name}" is not in the vault`, 'not_found');
      if (flags.reveal === true) io.stdout.write(`${value}\n`);
      else io.stdout.write(`${name} is set (${value.length} characters); pass --reveal to print it\n`);
    },
  );
  withConfig(vars.command('set').description('Store a value (read from standard input when not given)').argument('<name>').argument('[value]')).action(
    async (name: string, given: string | undefined, flags: VaultFlags) => {
      if (!NAME.test(name)) throw new CliError(`"${name}" is not a variable name (letters, digits, _ and -, not starting with a digit)`, EXIT.usage);
      const value = given ?? (await readStdin());
      if (value.length === 0) throw new CliError('the value is empty', EXIT.usage);
      const root = projectRoot(io, flags);
      writeVaultValues(root, { ...open(io, flags), [name]: value }, io.env, keyCreated(io));
      io.stdout.write(`Variable '${name}' set\n`);
    },
  );
  withConfig(vars.command('delete').description('Remove a value from the vault').argument('<name>')).action((name: string, flags: VaultFlags) => {
    const root = projectRoot(io, flags);
    const values = open(io, flags);
    if (!(name in values)) throw new CliError(`variable "${name}" is not in the vault`, 'not_found');
    delete values[name];
    writeVaultValues(root, values, io.env, keyCreated(io));
    io.stdout.write(`Variable '${name}' deleted\n`);
  });
}

function projectRoot(io: CliIo, flags: VaultFlags): string {
  const full = resolve(io.cwd, flags.config);
  if (!existsSync(full)) throw new CliError(`no such file or directory: ${flags.config}`, 'not_found');
  return statSync(full).isDirectory() ? full : dirname(full);
}

/** The vault's values ({} when there is no vault yet). */
function open(io: CliIo, flags: VaultFlags): Record<string, string> {
  return readVaultValues(projectRoot(io, flags), io.env);
}

function keyCreated(io: CliIo): (from: string) => void {
  return (from) => io.stderr.write(`created the vault key ${from} (mode 0600): keep it out of version control, and back it up — without it the vault cannot be opened\n`);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}
