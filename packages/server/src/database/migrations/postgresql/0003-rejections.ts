import { Migration } from '@mikro-orm/migrations';

/** Refused license checks and uploads, counted per day, operation, reason, key, `hostid` and client address. */
export class Rejections extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "rejection" ("day" varchar(10) not null, "operation" varchar(16) not null, "reason" varchar(32) not null, "key_id" varchar(36) not null, "host_id" varchar(255) not null, "remote_address" varchar(64) not null, "folded" boolean not null, "count" int not null, "first_at" timestamptz not null, "last_at" timestamptz not null, constraint "rejection_pkey" primary key ("day", "operation", "reason", "key_id", "host_id", "remote_address", "folded"));',
    );
  }
}
