import { createHash } from 'node:crypto';
import { Migration } from '@mikro-orm/migrations';

/**
 * Hosts (one per key and `hostid`), what each report's Lynis summary says, and admin tokens. Existing reports get
 * their hosts: one per key and `hostid` they were sent with, its columns from the newest of them. SQLite cannot add
 * a required foreign key column, so the report table is rebuilt (it needs free space about its size once).
 */
export class HostsAndSummaries extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `host` (`id` text not null, `key_id` text not null, `host_id` text not null, `host_id2` text null, `hostname` text null, `os_name` text null, `lynis_version` text null, `first_seen` datetime not null, `last_seen` datetime not null, `report_count` integer not null, `latest_report_id` text null, `latest_hardening_index` integer null, constraint `host_key_id_foreign` foreign key(`key_id`) references `license_key`(`id`) on update cascade, primary key (`id`));',
    );
    this.addSql('create index `host_key_id_index` on `host` (`key_id`);');
    this.addSql('create index `host_hostname_index` on `host` (`hostname`);');
    this.addSql('create index `host_last_seen_index` on `host` (`last_seen`);');
    this.addSql('create unique index `host_key_id_host_id_unique` on `host` (`key_id`, `host_id`);');

    for (const hosts of chunks(await this.hostsOfExistingReports(), 200)) this.addSql(this.getKnex().insert(hosts).into('host'));

    this.addSql(
      'create table `report_new` (`id` text not null, `key_id` text not null, `host_record_id` text not null, `host_id` text not null, `host_id2` text null, `received_at` datetime not null, `encoding` text not null, `size` integer not null, `sha256` text not null, `content` blob not null, `hostname` text null, `lynis_version` text null, `hardening_index` integer null, `warning_count` integer null, `suggestion_count` integer null, constraint `report_key_id_foreign` foreign key(`key_id`) references `license_key`(`id`) on update cascade, constraint `report_host_record_id_foreign` foreign key(`host_record_id`) references `host`(`id`) on update cascade, primary key (`id`));',
    );
    this.addSql(
      'insert into `report_new` (`id`, `key_id`, `host_record_id`, `host_id`, `host_id2`, `received_at`, `encoding`, `size`, `sha256`, `content`) select `r`.`id`, `r`.`key_id`, `h`.`id`, `r`.`host_id`, `r`.`host_id2`, `r`.`received_at`, `r`.`encoding`, `r`.`size`, `r`.`sha256`, `r`.`content` from `report` as `r` join `host` as `h` on `h`.`key_id` = `r`.`key_id` and `h`.`host_id` = `r`.`host_id`;',
    );
    this.addSql('drop table `report`;');
    this.addSql('alter table `report_new` rename to `report`;');
    this.addSql('create index `report_key_id_received_at_index` on `report` (`key_id`, `received_at`);');
    this.addSql('create index `report_host_record_id_received_at_index` on `report` (`host_record_id`, `received_at`);');

    this.addSql(
      'create table `admin_token` (`id` text not null, `token_hash` text not null, `prefix` text not null, `label` text null, `created_at` datetime not null, `revoked_at` datetime null, `last_used_at` datetime null, primary key (`id`));',
    );
    this.addSql('create unique index `admin_token_token_hash_unique` on `admin_token` (`token_hash`);');
  }

  /** One host row per key and `hostid` of the stored reports, from the newest report of each. */
  private async hostsOfExistingReports() {
    const newest = (await this.execute(
      'select `key_id`, `host_id`, `host_id2`, `id`, `received_at`, `first_seen`, `report_count` from (' +
        'select *, count(*) over `same_host` as `report_count`, min(`received_at`) over `same_host` as `first_seen`, ' +
        'row_number() over (`same_host` order by `received_at` desc, `id` desc) as `position` ' +
        'from `report` window `same_host` as (partition by `key_id`, `host_id`)' +
        ') where `position` = 1',
    )) as { key_id: string; host_id: string; host_id2: string | null; id: string; received_at: number; first_seen: number; report_count: number }[];
    return newest.map((report) => ({
      id: hostRecordId(report.key_id, report.host_id),
      key_id: report.key_id,
      host_id: report.host_id,
      host_id2: report.host_id2,
      first_seen: report.first_seen,
      last_seen: report.received_at,
      report_count: report.report_count,
      latest_report_id: report.id,
    }));
  }
}

/**
 * The host id of a key and `hostid`, as the server computed it when this migration was written: SHA-256 of both,
 * written as a UUID version 8. A frozen copy: the live derivation must keep giving the same ids, but a change to it
 * must never change what this migration did, so this copy stays exactly as it is.
 */
function hostRecordId(keyId: string, hostId: string): string {
  const hex = createHash('sha256').update(`${keyId}\n${hostId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
