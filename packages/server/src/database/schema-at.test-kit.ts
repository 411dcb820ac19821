// For upgrade tests: a database as an older server left it, to write rows the old way before migrating on.
import { Migrator } from '@mikro-orm/migrations';
import type { Database, DatabaseLocation } from './dialect.js';
import { dialectForUrl } from './dialects.js';
import { ENTITIES } from './entities.js';

/** Opens `location` with migrations applied up to `migration` (a name such as `0009-webhooks`) and no further. */
export async function openMigratedTo(location: DatabaseLocation, migration: string): Promise<Database> {
  const sql = dialectForUrl(location.databaseUrl);
  const old = await sql.open(
    {
      logger: () => {},
      entities: ENTITIES,
      extensions: [Migrator],
      migrations: { migrationsList: await sql.loadMigrations(), snapshot: false },
      discovery: { warnWhenNoEntities: false },
    },
    location,
  );
  await old.getMigrator().up({ to: migration });
  return old;
}
