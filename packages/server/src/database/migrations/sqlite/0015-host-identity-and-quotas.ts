import { Migration } from '@mikro-orm/migrations';

/**
 * A host's unaccepted `hostid2` change (flag), each key's quotas of hosts, and the count of new hosts per key and
 * UTC day that enforces the daily one.
 */
export class HostIdentityAndQuotas extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `host` add column `identity_changed_at` datetime null;');
    this.addSql('alter table `host` add column `identity_from` text null;');
    this.addSql('alter table `host` add column `identity_to` text null;');
    this.addSql('alter table `host` add column `identity_refused` integer not null default false;');
    this.addSql('alter table `license_key` add column `new_hosts_per_day` integer null;');
    this.addSql('alter table `license_key` add column `max_hosts` integer null;');
    this.addSql('create table `key_host_quota` (`key_id` text not null, `day` text not null, `new_hosts` integer not null, primary key (`key_id`));');
  }
}
