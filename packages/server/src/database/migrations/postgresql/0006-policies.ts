import { Migration } from '@mikro-orm/migrations';

/** Compliance policies, each host's results on their rules with the history of changes, and waivers. */
export class Policies extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "policy_evaluation" ("host_record_id" uuid not null, "report_id" uuid not null, "policy_set" varchar(64) not null, "evaluated_at" timestamptz not null, constraint "policy_evaluation_pkey" primary key ("host_record_id"));',
    );
    this.addSql(
      'create table "policy" ("id" uuid not null, "name" varchar(100) not null, "description" text null, "enabled" boolean not null, "scope_key_id" uuid null, "scope_group" varchar(255) null, "scope_tag" varchar(255) null, "scope_hostname" varchar(255) null, "rules" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "revision" int not null, constraint "policy_pkey" primary key ("id"));',
    );
    this.addSql('alter table "policy" add constraint "policy_name_unique" unique ("name");');
    this.addSql(
      'create table "policy_result_change" ("id" uuid not null, "host_record_id" uuid not null, "policy_id" uuid not null, "rule_id" varchar(64) not null, "status" varchar(8) not null, "value" varchar(255) null, "report_id" uuid not null, "at" timestamptz not null, constraint "policy_result_change_pkey" primary key ("id"));',
    );
    this.addSql('create index "policy_result_change_host_record_id_at_index" on "policy_result_change" ("host_record_id", "at");');
    this.addSql('create index "policy_result_change_policy_id_index" on "policy_result_change" ("policy_id");');
    this.addSql(
      'create table "policy_result" ("policy_id" uuid not null, "rule_id" varchar(64) not null, "host_record_id" uuid not null, "status" varchar(8) not null, "value" varchar(255) null, "message" varchar(500) null, "report_id" uuid not null, "evaluated_at" timestamptz not null, "since" timestamptz not null, constraint "policy_result_pkey" primary key ("policy_id", "rule_id", "host_record_id"));',
    );
    this.addSql('create index "policy_result_host_record_id_index" on "policy_result" ("host_record_id");');
    this.addSql(
      'create table "waiver" ("id" uuid not null, "policy_id" uuid not null, "rule_id" varchar(64) null, "host_record_id" uuid null, "group_name" varchar(255) null, "reason" text not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, "created_by" varchar(255) null, constraint "waiver_pkey" primary key ("id"));',
    );
    this.addSql('create index "waiver_policy_id_index" on "waiver" ("policy_id");');
    this.addSql(
      'create table "compliance_day" ("day" varchar(10) not null, "pass" int not null, "fail" int not null, "error" int not null, "waived" int not null, "measured_at" timestamptz not null, constraint "compliance_day_pkey" primary key ("day"));',
    );
  }
}
