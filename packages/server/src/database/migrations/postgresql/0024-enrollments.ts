import { Migration } from '@mikro-orm/migrations';

/**
 * Enrollments: a secret that fetches the one-line enroll script and a key-shaped alias of a license key that
 * enrolled hosts send (both as SHA-256 hashes), with the labels written into their profiles. Hosts remember the
 * enrollment their first report came through, so that an enrollment counts its hosts.
 */
export class Enrollments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "enrollment" ("id" uuid not null, "secret_hash" varchar(64) not null, "alias_hash" varchar(64) not null, "license_key_id" uuid not null, "system_groups" text not null, "tags" text not null, "customer" varchar(255) null, "expires_at" timestamptz not null, "max_hosts" int null, "created_at" timestamptz not null, "created_by" varchar(255) null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, constraint "enrollment_pkey" primary key ("id"));',
    );
    this.addSql('alter table "enrollment" add constraint "enrollment_secret_hash_unique" unique ("secret_hash");');
    this.addSql('alter table "enrollment" add constraint "enrollment_alias_hash_unique" unique ("alias_hash");');
    this.addSql('create index "enrollment_license_key_id_index" on "enrollment" ("license_key_id");');
    this.addSql('alter table "host" add column "enrollment_id" uuid null;');
    this.addSql('create index "host_enrollment_id_index" on "host" ("enrollment_id");');
  }
}
