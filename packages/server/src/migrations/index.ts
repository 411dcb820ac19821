import type { MigrationObject } from '@mikro-orm/core';
import { InitialSchema } from './0001-initial-schema.js';
import { KeyLifecycle } from './0002-key-lifecycle.js';

/**
 * Every schema migration, oldest first. Listed here so they run from compiled output without file globbing.
 * A test checks that after them the schema matches the entities exactly.
 */
export const migrations: MigrationObject[] = [
  { name: '0001-initial-schema', class: InitialSchema },
  { name: '0002-key-lifecycle', class: KeyLifecycle },
];
