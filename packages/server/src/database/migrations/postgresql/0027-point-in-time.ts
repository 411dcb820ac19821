import { Migration } from '@mikro-orm/migrations';

/**
 * Compliance at a past moment: every version of every policy (`policy_version`, the current ones copied in as
 * saved at their last update), the version each result and change was evaluated under, deleted waivers kept
 * (`waiver_history`), and the daily compliance snapshots taken from the changes once a day is over.
 */
export class PointInTime extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "policy_version" ("policy_id" uuid not null, "revision" int not null, "name" varchar(100) not null, "enabled" boolean not null, "scope_key_id" uuid null, "scope_group" varchar(255) null, "scope_tag" varchar(255) null, "scope_hostname" varchar(255) null, "rules" text not null, "saved_at" timestamptz not null, "deleted" boolean not null default false, constraint "policy_version_pkey" primary key ("policy_id", "revision"));',
    );
    this.addSql(
      'insert into "policy_version" ("policy_id", "revision", "name", "enabled", "scope_key_id", "scope_group", "scope_tag", "scope_hostname", "rules", "saved_at", "deleted") select "id", "revision", "name", "enabled", "scope_key_id", "scope_group", "scope_tag", "scope_hostname", "rules", "updated_at", false from "policy";',
    );
    this.addSql('alter table "policy_result" add column "policy_revision" int not null default 0;');
    this.addSql(
      'update "policy_result" set "policy_revision" = coalesce((select "revision" from "policy" where "policy"."id" = "policy_result"."policy_id"), 0);',
    );
    this.addSql('alter table "policy_result_change" add column "policy_revision" int null;');
    this.addSql('create index "policy_result_change_at_index" on "policy_result_change" ("at");');
    this.addSql(
      'create table "waiver_history" ("id" uuid not null, "policy_id" uuid not null, "rule_id" varchar(64) null, "host_record_id" uuid null, "group_name" varchar(255) null, "reason" text not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, "created_by" varchar(255) null, "deleted_at" timestamptz not null, constraint "waiver_history_pkey" primary key ("id"));',
    );
    this.addSql(
      'create table "compliance_snapshot" ("day" varchar(10) not null, "policy_id" uuid not null, "scope_kind" varchar(8) not null, "scope_value" varchar(255) not null, "compliant" int not null, "noncompliant" int not null, "accepted" int not null, "unknown" int not null, "open_warning" int null, "open_suggestion" int null, "accepted_findings" int null, "taken_at" timestamptz not null, constraint "compliance_snapshot_pkey" primary key ("day", "policy_id", "scope_kind", "scope_value"));',
    );
  }
}
