// The PostgreSQL store's entry (groundwork for issue 13's scale-out): connection strings, connecting
// with migrations applied. Imported only where PostgreSQL is used, so `pg` never loads for SQLite.

export { connectPostgres } from './connect.js';
export type { PostgresConnection, PostgresConnectOptions } from './connect.js';
export { isPostgresUrl, parsePostgresUrl, scrubSecrets, shownPostgresUrl } from './url.js';
export type { PostgresTarget } from './url.js';
