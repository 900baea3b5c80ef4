// The MCP SDK's OAuthClientProvider, backed by the encrypted credential store. Runs use it
// non-interactively: stored tokens are sent and refreshed by the SDK (PKCE, dynamic client
// registration and refresh are the SDK's), and when a person is needed — no login yet, or the
// refresh token is no longer accepted — the call fails with NeedsLoginError naming the command that
// fixes it. `squadron mcp login` uses it interactively: it registers a client for its loopback
// callback and hands the authorization URL to the person.

import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomBytes } from 'node:crypto';
import type { CredentialStore, McpCredentials } from './credentialStore.js';

/** The server wants a person to log in first. */
export class NeedsLoginError extends Error {
  override name = 'NeedsLoginError';
  constructor(readonly server: string) {
    super(`MCP server "${server}" needs a login: run squadron mcp login ${server}`);
  }
}

/** Where the browser is sent back to, for the one interactive login. */
export interface InteractiveLogin {
  redirectUrl: string;
  onAuthorizationUrl(url: URL): void;
}

/** The server answered 401 but offers no OAuth (no resource or authorization server metadata). */
export class NoOAuthError extends Error {
  override name = 'NoOAuthError';
  constructor(readonly server: string) {
    super(`MCP server "${server}" answered 401 Unauthorized and offers no OAuth login: give it credentials with headers = { Authorization = "…" }`);
  }
}

/** A server whose config sends its own Authorization header is left to it: no OAuth for it. */
export function usesOwnAuthorization(headers: Readonly<Record<string, string>>): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
}

export class StoredOAuthProvider implements OAuthClientProvider {
  /**
   * The server's stored credentials, read (and decrypted) once: the SDK asks for the tokens on every
   * request. Undefined until read; null when there are none. A save drops it, to be read again.
   */
  private cached?: McpCredentials | null;
  private verifier?: string;
  /** Set by discovery, before any client or token is asked for. */
  private oauthOffered?: boolean;
  private readonly expectedState = randomBytes(16).toString('hex');

  constructor(
    private readonly server: { name: string; url: string },
    private readonly store: CredentialStore,
    private readonly login?: InteractiveLogin,
  ) {}

  get redirectUrl(): string {
    // Runs never redirect anyone (redirectToAuthorization refuses), but the SDK requires a URL to
    // consider a flow interactive, which is what lets a refresh fall back to asking for a login.
    return this.login?.redirectUrl ?? 'http://127.0.0.1/squadron-login-required';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Squadron',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.expectedState;
  }

  /** Called by the SDK once discovery ran: whether the server points at an authorization server at all. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.oauthOffered = state.resourceMetadata !== undefined || state.authorizationServerMetadata !== undefined;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.oauthOffered === false) throw new NoOAuthError(this.server.name);
    const client = this.credentials()?.client;
    if (this.login === undefined) {
      // Registering a client is the first step of a login: a run does not start one.
      if (client === undefined) throw new NeedsLoginError(this.server.name);
      return client;
    }
    // A login registers anew unless the stored client already has this callback address.
    const uris = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    return client !== undefined && uris?.includes(this.login.redirectUrl) ? client : undefined;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.save({ client });
  }

  tokens(): OAuthTokens | undefined {
    return this.credentials()?.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.save({ tokens });
  }

  redirectToAuthorization(url: URL): void {
    if (this.login === undefined) throw new NeedsLoginError(this.server.name);
    this.login.onAuthorizationUrl(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no login is in progress');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier' || scope === 'discovery') return;
    if (this.credentials() === undefined) return;
    if (scope === 'all') {
      this.store.remove(this.server.url);
      this.cached = null;
    } else {
      this.save(scope === 'client' ? { client: undefined } : { tokens: undefined });
    }
  }

  private credentials(): McpCredentials | undefined {
    if (this.cached === undefined) this.cached = this.store.read(this.server.url) ?? null;
    return this.cached ?? undefined;
  }

  private save(change: Partial<Pick<McpCredentials, 'client' | 'tokens'>>): void {
    this.store.update(this.server.url, change);
    this.cached = undefined;
  }
}
