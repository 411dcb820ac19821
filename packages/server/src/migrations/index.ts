import type { MigrationObject } from '@mikro-orm/core';
import type { Dialect } from '../database.js';
import { InitialSchema as PostgreSqlInitialSchema } from './postgresql/0001-initial-schema.js';
import { WriteProbe as PostgreSqlWriteProbe } from './postgresql/0002-write-probe.js';
import { InitialSchema } from './sqlite/0001-initial-schema.js';
import { KeyLifecycle } from './sqlite/0002-key-lifecycle.js';
import { HostsAndSummaries } from './sqlite/0003-hosts-and-summaries.js';
import { WriteProbe } from './sqlite/0004-write-probe.js';

/**
 * Every schema migration of each dialect, oldest first. Listed here so they run from compiled output without file
 * globbing. Both lists build the same schema (PostgreSQL support came later, so its list starts at today's schema);
 * a test per dialect checks that after them the schema matches the entities exactly.
 */
const MIGRATIONS: Record<Dialect, MigrationObject[]> = {
  sqlite: [
    { name: '0001-initial-schema', class: InitialSchema },
    { name: '0002-key-lifecycle', class: KeyLifecycle },
    { name: '0003-hosts-and-summaries', class: HostsAndSummaries },
    { name: '0004-write-probe', class: WriteProbe },
  ],
  postgresql: [
    { name: '0001-initial-schema', class: PostgreSqlInitialSchema },
    { name: '0002-write-probe', class: PostgreSqlWriteProbe },
  ],
};

export const migrationsFor = (dialect: Dialect): MigrationObject[] => MIGRATIONS[dialect];
