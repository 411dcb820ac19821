import { Migration } from '@mikro-orm/migrations';

/**
 * Findings with a lifecycle: one row per host, kind and test id across the host's reports (`finding`), with its
 * state, owner, accepted risk and dates, and every change of state (`finding_transition`).
 */
export class FindingLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "finding" ("id" uuid not null, "host_record_id" uuid not null, "kind" varchar(16) not null, "test_id" varchar(64) not null, "text" varchar(255) not null, "state" varchar(16) not null, "state_since" timestamptz not null, "owner_user_id" uuid null, "due_at" timestamptz null, "accept_reason" text null, "accept_requested_by" varchar(255) null, "accept_approver_id" uuid null, "accept_expires_at" timestamptz null, "first_seen" timestamptz not null, "last_seen" timestamptz not null, "resolved_at" timestamptz null, "regressions" int not null default 0, constraint "finding_pkey" primary key ("id"));',
    );
    this.addSql('alter table "finding" add constraint "finding_host_record_id_kind_test_id_unique" unique ("host_record_id", "kind", "test_id");');
    this.addSql('create index "finding_state_first_seen_index" on "finding" ("state", "first_seen");');
    this.addSql('create index "finding_owner_user_id_index" on "finding" ("owner_user_id");');
    this.addSql('create index "finding_accept_expires_at_index" on "finding" ("accept_expires_at");');
    this.addSql(
      'create table "finding_transition" ("id" uuid not null, "finding_id" uuid not null, "from_state" varchar(16) null, "to_state" varchar(16) not null, "at" timestamptz not null, "actor" varchar(255) null, "reason" text null, constraint "finding_transition_pkey" primary key ("id"));',
    );
    this.addSql('create index "finding_transition_finding_id_at_index" on "finding_transition" ("finding_id", "at");');
    this.addSql('create index "finding_transition_at_index" on "finding_transition" ("at");');
  }
}
