import { Migration } from '@mikro-orm/migrations';

/** Compliance policies, each host's results on their rules with the history of changes, and waivers. */
export class Policies extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `policy_evaluation` (`host_record_id` text not null, `report_id` text not null, `policy_set` text not null, `evaluated_at` datetime not null, primary key (`host_record_id`));',
    );
    this.addSql(
      'create table `policy` (`id` text not null, `name` text not null, `description` text null, `enabled` integer not null, `scope_key_id` text null, `scope_group` text null, `scope_tag` text null, `scope_hostname` text null, `rules` text not null, `created_at` datetime not null, `updated_at` datetime not null, `revision` integer not null, primary key (`id`));',
    );
    this.addSql('create unique index `policy_name_unique` on `policy` (`name`);');
    this.addSql(
      'create table `policy_result_change` (`id` text not null, `host_record_id` text not null, `policy_id` text not null, `rule_id` text not null, `status` text not null, `value` text null, `report_id` text not null, `at` datetime not null, primary key (`id`));',
    );
    this.addSql('create index `policy_result_change_host_record_id_at_index` on `policy_result_change` (`host_record_id`, `at`);');
    this.addSql('create index `policy_result_change_policy_id_index` on `policy_result_change` (`policy_id`);');
    this.addSql(
      'create table `policy_result` (`policy_id` text not null, `rule_id` text not null, `host_record_id` text not null, `status` text not null, `value` text null, `message` text null, `report_id` text not null, `evaluated_at` datetime not null, `since` datetime not null, primary key (`policy_id`, `rule_id`, `host_record_id`));',
    );
    this.addSql('create index `policy_result_host_record_id_index` on `policy_result` (`host_record_id`);');
    this.addSql(
      'create table `waiver` (`id` text not null, `policy_id` text not null, `rule_id` text null, `host_record_id` text null, `group_name` text null, `reason` text not null, `expires_at` datetime not null, `created_at` datetime not null, `created_by` text null, primary key (`id`));',
    );
    this.addSql('create index `waiver_policy_id_index` on `waiver` (`policy_id`);');
    this.addSql(
      'create table `compliance_day` (`day` text not null, `pass` integer not null, `fail` integer not null, `error` integer not null, `waived` integer not null, `measured_at` datetime not null, primary key (`day`));',
    );
  }
}
