// API tokens of `squadron serve`: only their SHA-256 is stored (the caller hashes), with a name and
// the times they were made and revoked.

export interface TokenRow {
  id: string;
  name: string;
  createdAt: string;
  revokedAt?: string;
  /** The missions the token may see and run over MCP and A2A; undefined: all. */
  missions?: readonly string[];
}

export interface TokensRepo {
  create(t: { id: string; name: string; hash: string; missions?: readonly string[] }): Promise<TokenRow>;
  /** Oldest first, revoked ones included. */
  list(): Promise<TokenRow[]>;
  /** false when no such token, or it was revoked already. */
  revoke(idOrName: string): Promise<boolean>;
  /** The token with this hash, unless revoked. */
  findActive(hash: string): Promise<TokenRow | undefined>;
}

/** A stored token row in the shape both backends return. */
export function toTokenRow(row: Record<string, unknown>): TokenRow {
  const revoked = row['revoked_at'];
  const missions = typeof row['missions'] === 'string' ? (JSON.parse(row['missions']) as unknown) : undefined;
  return {
    id: String(row['id']),
    name: String(row['name']),
    createdAt: String(row['created_at']),
    ...(typeof revoked === 'string' ? { revokedAt: revoked } : {}),
    ...(Array.isArray(missions) ? { missions: missions.map(String) } : {}),
  };
}
