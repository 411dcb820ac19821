import { Migration } from '@mikro-orm/migrations';

/**
 * The fleet view: each host's latest warning and suggestion counts, customer name and alias, its groups and tags
 * (`host_label`) and the findings of its newest report (`host_finding`), with a digest of those rows on the host,
 * each indexed for the admin API's filters and groupings; and the hardening index in the report index by time, for
 * the overview's trends. Hosts stored before keep `derived_version` 0 until the server derives them from their
 * newest report in the background. SQLite keeps the two
 * tables without rowid: each row lives in its primary key's b-tree, one b-tree fewer to write per row.
 */
export class FleetView extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `host` add column `latest_warning_count` integer null;');
    this.addSql('alter table `host` add column `latest_suggestion_count` integer null;');
    this.addSql('alter table `host` add column `customer_name` text null;');
    this.addSql('alter table `host` add column `hostname_alias` text null;');
    this.addSql('alter table `host` add column `derived_version` integer not null default 0;');
    this.addSql('alter table `host` add column `derived_digest` text null;');

    this.addSql(
      'create table `host_label` (`host_record_id` text not null, `kind` text not null, `value` text not null, `position` integer not null, constraint `host_label_host_record_id_foreign` foreign key(`host_record_id`) references `host`(`id`) on update cascade, primary key (`host_record_id`, `kind`, `value`)) without rowid;',
    );
    this.addSql('create index `host_label_kind_value_host_record_id_index` on `host_label` (`kind`, `value`, `host_record_id`);');
    this.addSql(
      'create table `host_finding` (`host_record_id` text not null, `kind` text not null, `test_id` text not null, `text` text not null, constraint `host_finding_host_record_id_foreign` foreign key(`host_record_id`) references `host`(`id`) on update cascade, primary key (`host_record_id`, `kind`, `test_id`)) without rowid;',
    );
    this.addSql('create index `host_finding_test_id_kind_text_host_record_id_index` on `host_finding` (`test_id`, `kind`, `text`, `host_record_id`);');

    this.addSql('drop index `report_received_at_id_index`;');
    this.addSql('create index `report_received_at_id_hardening_index_index` on `report` (`received_at`, `id`, `hardening_index`);');
  }
}
