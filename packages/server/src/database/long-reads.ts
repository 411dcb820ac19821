import type { Knex } from '@mikro-orm/knex';
import type { Database } from './dialect.js';

/**
 * The connection for a read that takes seconds on a large fleet (time to fix over a window): on SQLite a connection of
 * its own beside the writer's (`sqlite.ts`), so requests and uploads do not wait behind it; on PostgreSQL the pool's.
 * Reads only: it sees what is committed.
 */
export const longReads = (database: Database): Knex => database.em.getKnex('read');
