import { Migration } from '@mikro-orm/migrations';

/**
 * Host lifecycle: each host's state (active, stale, decommissioned) with when and why it entered it, the newest
 * report's `machineid=` and `allow-auto-purge=` (identity merge and expiry read them), and the other `hostid`s
 * merged into a host (`host_alias`: their later reports join it).
 */
export class HostLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table `host` add column `state` text not null default 'active';");
    this.addSql('alter table `host` add column `state_since` datetime null;');
    this.addSql("alter table `host` add column `state_reason` text not null default 'reporting';");
    this.addSql('alter table `host` add column `machine_id` text null;');
    this.addSql('alter table `host` add column `auto_purge` integer not null default false;');
    this.addSql('create index `host_state_index` on `host` (`state`);');
    this.addSql('create index `host_key_id_host_id2_index` on `host` (`key_id`, `host_id2`);');
    this.addSql(
      'create table `host_alias` (`key_id` text not null, `host_id` text not null, `host_record_id` text not null, `merged_at` datetime not null, primary key (`key_id`, `host_id`));',
    );
    this.addSql('create index `host_alias_host_record_id_index` on `host_alias` (`host_record_id`);');
  }
}
