import { Migration } from '@mikro-orm/migrations';

/** Key expiry, last use, and a revision number that tells running servers a key changed. */
export class KeyLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `license_key` add column `expires_at` datetime null;');
    this.addSql('alter table `license_key` add column `last_used_at` datetime null;');
    this.addSql('alter table `license_key` add column `revision` integer not null default 0;');
  }
}
