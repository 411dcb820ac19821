import { Migration } from '@mikro-orm/migrations';

/**
 * Compliance at a past moment: every version of every policy (`policy_version`, the current ones copied in as
 * saved at their last update), the version each result and change was evaluated under, deleted waivers kept
 * (`waiver_history`), and the daily compliance snapshots taken from the changes once a day is over.
 */
export class PointInTime extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `policy_version` (`policy_id` text not null, `revision` integer not null, `name` text not null, `enabled` integer not null, `scope_key_id` text null, `scope_group` text null, `scope_tag` text null, `scope_hostname` text null, `rules` text not null, `saved_at` datetime not null, `deleted` integer not null default false, primary key (`policy_id`, `revision`));',
    );
    this.addSql(
      'insert into `policy_version` (`policy_id`, `revision`, `name`, `enabled`, `scope_key_id`, `scope_group`, `scope_tag`, `scope_hostname`, `rules`, `saved_at`, `deleted`) select `id`, `revision`, `name`, `enabled`, `scope_key_id`, `scope_group`, `scope_tag`, `scope_hostname`, `rules`, `updated_at`, false from `policy`;',
    );
    this.addSql('alter table `policy_result` add column `policy_revision` integer not null default 0;');
    this.addSql(
      'update `policy_result` set `policy_revision` = coalesce((select `revision` from `policy` where `policy`.`id` = `policy_result`.`policy_id`), 0);',
    );
    this.addSql('alter table `policy_result_change` add column `policy_revision` integer null;');
    this.addSql('create index `policy_result_change_at_index` on `policy_result_change` (`at`);');
    this.addSql(
      'create table `waiver_history` (`id` text not null, `policy_id` text not null, `rule_id` text null, `host_record_id` text null, `group_name` text null, `reason` text not null, `expires_at` datetime not null, `created_at` datetime not null, `created_by` text null, `deleted_at` datetime not null, primary key (`id`));',
    );
    this.addSql(
      'create table `compliance_snapshot` (`day` text not null, `policy_id` text not null, `scope_kind` text not null, `scope_value` text not null, `compliant` integer not null, `noncompliant` integer not null, `accepted` integer not null, `unknown` integer not null, `open_warning` integer null, `open_suggestion` integer null, `accepted_findings` integer null, `taken_at` datetime not null, primary key (`day`, `policy_id`, `scope_kind`, `scope_value`));',
    );
  }
}
