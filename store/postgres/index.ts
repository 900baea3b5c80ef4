// The PostgreSQL store's entry: connection strings, connecting with migrations applied, and the Store
// on a pool. Imported only where PostgreSQL is used, so `pg` never loads for SQLite.

export { connectPostgres } from './connect.js';
export type { PostgresConnection, PostgresConnectOptions } from './connect.js';
export { openPostgresStore } from './store.js';
export type { PostgresStoreOptions } from './store.js';
export { isPostgresUrl, parsePostgresUrl, scrubSecrets, shownPostgresUrl } from './url.js';
export type { PostgresTarget } from './url.js';
