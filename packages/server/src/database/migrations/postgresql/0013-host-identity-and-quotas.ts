import { Migration } from '@mikro-orm/migrations';

/**
 * A host's unaccepted `hostid2` change (flag), each key's quotas of hosts, and the count of new hosts per key and
 * UTC day that enforces the daily one.
 */
export class HostIdentityAndQuotas extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "host" add column "identity_changed_at" timestamptz null, add column "identity_from" varchar(255) null, add column "identity_to" varchar(255) null, add column "identity_refused" boolean not null default false;',
    );
    this.addSql('alter table "license_key" add column "new_hosts_per_day" int null, add column "max_hosts" int null;');
    this.addSql(
      'create table "key_host_quota" ("key_id" uuid not null, "day" varchar(10) not null, "new_hosts" int not null, constraint "key_host_quota_pkey" primary key ("key_id"));',
    );
  }
}
