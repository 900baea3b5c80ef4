// Where OAuth credentials for MCP servers live between runs: one file per server URL in the user's
// Squadron folder (`$SQUADRON_CONFIG_HOME`, else `$XDG_CONFIG_HOME/squadron`, else
// `~/.config/squadron`), encrypted with AES-256-GCM. Never in the project, the database or a log.
// The key is `$SQUADRON_CREDENTIALS_KEY` (64 hex digits) when set, so it can come from a secret
// manager; otherwise a random key in `credentials.key` (mode 0600) beside the files, created on first
// use. A file that cannot be decrypted (the key changed, the file was edited) reads as absent.

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import { makePrivateDirs } from '../../../store/privateDirs.js';

export interface McpCredentials {
  /** The server these belong to: credentials are keyed by URL, not by a config's name for it. */
  serverUrl: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  savedAt: string;
}

const SealedFile = z.object({ v: z.literal(1), iv: z.string(), tag: z.string(), data: z.string() });
const KEY_HEX = /^[0-9a-fA-F]{64}$/;

export class CredentialKeyError extends Error {
  override name = 'CredentialKeyError';
}

/** The user's Squadron folder (not the project's .squadron/). */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SQUADRON_CONFIG_HOME) return env.SQUADRON_CONFIG_HOME;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'squadron');
  return join(homedir(), '.config', 'squadron');
}

export class CredentialStore {
  readonly dir: string;

  constructor(
    dir?: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.dir = dir ?? join(userConfigDir(env), 'mcp-credentials');
  }

  read(serverUrl: string): McpCredentials | undefined {
    const path = this.pathFor(serverUrl);
    if (!existsSync(path)) return undefined;
    try {
      const sealed = SealedFile.parse(JSON.parse(readFileSync(path, 'utf8')));
      const key = this.key(false);
      if (key === undefined) return undefined;
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
      const creds = JSON.parse(text) as McpCredentials;
      return creds.serverUrl === serverUrl ? creds : undefined;
    } catch (err) {
      if (err instanceof CredentialKeyError) throw err;
      return undefined;
    }
  }

  write(creds: Omit<McpCredentials, 'savedAt'>): void {
    makePrivateDirs(this.dir);
    const key = this.key(true)!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const plain = JSON.stringify({ ...creds, savedAt: new Date().toISOString() });
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const sealed = { v: 1, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    const path = this.pathFor(creds.serverUrl);
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(sealed), { mode: 0o600 });
    renameSync(temp, path);
  }

  update(serverUrl: string, change: Partial<Omit<McpCredentials, 'serverUrl' | 'savedAt'>>): void {
    const { savedAt: _savedAt, ...current } = this.read(serverUrl) ?? { serverUrl, savedAt: '' };
    this.write({ ...current, ...change, serverUrl });
  }

  /** Forgets a server's credentials; true when there were some. */
  remove(serverUrl: string): boolean {
    const path = this.pathFor(serverUrl);
    if (!existsSync(path)) return false;
    rmSync(path, { force: true });
    return true;
  }

  pathFor(serverUrl: string): string {
    return join(this.dir, `${createHash('sha256').update(serverUrl).digest('hex').slice(0, 32)}.json.enc`);
  }

  private key(create: boolean): Buffer | undefined {
    const given = this.env.SQUADRON_CREDENTIALS_KEY;
    if (given !== undefined && given !== '') {
      if (!KEY_HEX.test(given)) throw new CredentialKeyError('SQUADRON_CREDENTIALS_KEY must be 64 hex digits (32 bytes), e.g. from: openssl rand -hex 32');
      return Buffer.from(given, 'hex');
    }
    const path = join(this.dir, 'credentials.key');
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8').trim();
      if (!KEY_HEX.test(text)) throw new CredentialKeyError(`${path} does not hold a key (64 hex digits); remove it to start over (stored logins are then lost)`);
      return Buffer.from(text, 'hex');
    }
    if (!create) return undefined;
    makePrivateDirs(this.dir);
    const key = randomBytes(32);
    try {
      writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process created it first: use that one.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return this.key(false);
      throw err;
    }
    chmodSync(path, 0o600);
    return key;
  }
}
