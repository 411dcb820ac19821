import { Migration } from '@mikro-orm/migrations';

/**
 * The fleet view: each host's latest warning and suggestion counts, customer name and alias, its groups and tags
 * (`host_label`) and the findings of its newest report (`host_finding`), with a digest of those rows on the host,
 * each indexed for the admin API's filters and groupings; and the hardening index in the report index by time, for
 * the overview's trends. Hosts stored before keep `derived_version` 0 until the server derives them from their
 * newest report in the background.
 */
export class FleetView extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "host" add column "latest_warning_count" int null, add column "latest_suggestion_count" int null, add column "customer_name" varchar(255) null, add column "hostname_alias" varchar(255) null, add column "derived_version" int not null default 0, add column "derived_digest" varchar(64) null;',
    );

    this.addSql(
      'create table "host_label" ("host_record_id" uuid not null, "kind" varchar(8) not null, "value" varchar(255) not null, "position" int not null, constraint "host_label_pkey" primary key ("host_record_id", "kind", "value"));',
    );
    this.addSql('create index "host_label_kind_value_host_record_id_index" on "host_label" ("kind", "value", "host_record_id");');
    this.addSql(
      'alter table "host_label" add constraint "host_label_host_record_id_foreign" foreign key ("host_record_id") references "host" ("id") on update cascade;',
    );
    this.addSql(
      'create table "host_finding" ("host_record_id" uuid not null, "kind" varchar(10) not null, "test_id" varchar(64) not null, "text" varchar(255) not null, constraint "host_finding_pkey" primary key ("host_record_id", "kind", "test_id"));',
    );
    this.addSql('create index "host_finding_test_id_kind_text_host_record_id_index" on "host_finding" ("test_id", "kind", "text", "host_record_id");');
    this.addSql(
      'alter table "host_finding" add constraint "host_finding_host_record_id_foreign" foreign key ("host_record_id") references "host" ("id") on update cascade;',
    );

    this.addSql('drop index "report_received_at_id_index";');
    this.addSql('create index "report_received_at_id_hardening_index_index" on "report" ("received_at", "id", "hardening_index");');
  }
}
