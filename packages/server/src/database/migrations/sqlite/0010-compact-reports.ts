import { Migration } from '@mikro-orm/migrations';

/**
 * Reports kept compressed: how each row's `content` is encoded, and the SHA-256 of the report it decodes to. Rows
 * stored before are `identity` (kept as they are) with no digest.
 */
export class CompactReports extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table `report` add column `content_encoding` text not null default 'identity';");
    this.addSql('alter table `report` add column `content_sha256` text null;');
  }
}
