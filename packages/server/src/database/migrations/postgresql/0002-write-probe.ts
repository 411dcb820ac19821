import { Migration } from '@mikro-orm/migrations';

/** The one-row table the readiness check writes to while writes fail (see `WriteHealth`). */
export class WriteProbe extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "write_probe" ("id" int not null, "written_at" timestamptz not null, "payload" bytea not null, constraint "write_probe_pkey" primary key ("id"));',
    );
    this.addSql('insert into "write_probe" ("id", "written_at", "payload") values (1, now(), \'\'::bytea);');
  }
}
