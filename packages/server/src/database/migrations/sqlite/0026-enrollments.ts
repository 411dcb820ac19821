import { Migration } from '@mikro-orm/migrations';

/**
 * Enrollments: a secret that fetches the one-line enroll script and a key-shaped alias of a license key that
 * enrolled hosts send (both as SHA-256 hashes), with the labels written into their profiles. Hosts remember the
 * enrollment their first report came through, so that an enrollment counts its hosts.
 */
export class Enrollments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `enrollment` (`id` text not null, `secret_hash` text not null, `alias_hash` text not null, `license_key_id` text not null, `system_groups` text not null, `tags` text not null, `customer` text null, `expires_at` datetime not null, `max_hosts` integer null, `created_at` datetime not null, `created_by` text null, `revoked_at` datetime null, `last_used_at` datetime null, primary key (`id`));',
    );
    this.addSql('create unique index `enrollment_secret_hash_unique` on `enrollment` (`secret_hash`);');
    this.addSql('create unique index `enrollment_alias_hash_unique` on `enrollment` (`alias_hash`);');
    this.addSql('create index `enrollment_license_key_id_index` on `enrollment` (`license_key_id`);');
    this.addSql('alter table `host` add column `enrollment_id` text null;');
    this.addSql('create index `host_enrollment_id_index` on `host` (`enrollment_id`);');
  }
}
