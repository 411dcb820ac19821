import { Migration } from '@mikro-orm/migrations';

/**
 * Host lifecycle: each host's state (active, stale, decommissioned) with when and why it entered it, the newest
 * report's `machineid=` and `allow-auto-purge=` (identity merge and expiry read them), and the other `hostid`s
 * merged into a host (`host_alias`: their later reports join it).
 */
export class HostLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "host" add column "state" varchar(16) not null default 'active', add column "state_since" timestamptz null, add column "state_reason" varchar(16) not null default 'reporting', add column "machine_id" varchar(255) null, add column "auto_purge" boolean not null default false;`,
    );
    this.addSql('create index "host_state_index" on "host" ("state");');
    this.addSql('create index "host_key_id_host_id2_index" on "host" ("key_id", "host_id2");');
    this.addSql(
      'create table "host_alias" ("key_id" uuid not null, "host_id" varchar(255) not null, "host_record_id" uuid not null, "merged_at" timestamptz not null, constraint "host_alias_pkey" primary key ("key_id", "host_id"));',
    );
    this.addSql('create index "host_alias_host_record_id_index" on "host_alias" ("host_record_id");');
  }
}
