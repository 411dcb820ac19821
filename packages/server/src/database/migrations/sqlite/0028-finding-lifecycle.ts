import { Migration } from '@mikro-orm/migrations';

/**
 * Findings with a lifecycle: one row per host, kind and test id across the host's reports (`finding`), with its
 * state, owner, accepted risk and dates, and every change of state (`finding_transition`).
 */
export class FindingLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `finding` (`id` text not null, `host_record_id` text not null, `kind` text not null, `test_id` text not null, `text` text not null, `state` text not null, `state_since` datetime not null, `owner_user_id` text null, `due_at` datetime null, `accept_reason` text null, `accept_requested_by` text null, `accept_approver_id` text null, `accept_expires_at` datetime null, `first_seen` datetime not null, `last_seen` datetime not null, `resolved_at` datetime null, `regressions` integer not null default 0, primary key (`id`));',
    );
    this.addSql('create unique index `finding_host_record_id_kind_test_id_unique` on `finding` (`host_record_id`, `kind`, `test_id`);');
    this.addSql('create index `finding_state_first_seen_index` on `finding` (`state`, `first_seen`);');
    this.addSql('create index `finding_owner_user_id_index` on `finding` (`owner_user_id`);');
    this.addSql('create index `finding_accept_expires_at_index` on `finding` (`accept_expires_at`);');
    this.addSql(
      'create table `finding_transition` (`id` text not null, `finding_id` text not null, `from_state` text null, `to_state` text not null, `at` datetime not null, `actor` text null, `reason` text null, primary key (`id`));',
    );
    this.addSql('create index `finding_transition_finding_id_at_index` on `finding_transition` (`finding_id`, `at`);');
    this.addSql('create index `finding_transition_at_index` on `finding_transition` (`at`);');
  }
}
