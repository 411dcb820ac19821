import { Migration } from '@mikro-orm/migrations';

/**
 * Scheduled digests: schedules (`digest_schedule`: scope, cadence, recipients, when next due) and the digests they
 * issued (`digest`: the figures frozen as JSON, and the email's delivery: status, attempts, last error, next attempt).
 */
export class Digests extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "digest_schedule" ("id" uuid not null, "scope_group" varchar(255) null, "scope_customer" varchar(255) null, "cadence" varchar(16) not null, "recipients" text not null, "created_at" timestamptz not null, "created_by" varchar(255) null, "last_issued_at" timestamptz null, "next_due_at" timestamptz not null, constraint "digest_schedule_pkey" primary key ("id"));',
    );
    this.addSql('create index "digest_schedule_next_due_at_index" on "digest_schedule" ("next_due_at");');
    this.addSql(
      'create table "digest" ("id" uuid not null, "schedule_id" uuid null, "scope_group" varchar(255) null, "scope_customer" varchar(255) null, "cadence" varchar(16) not null, "period_start" timestamptz not null, "period_end" timestamptz not null, "created_at" timestamptz not null, "recipients" text not null, "content" text not null, "status" varchar(16) not null, "attempts" int not null default 0, "last_error" varchar(500) null, "next_attempt_at" timestamptz null, "claimed_until" timestamptz null, "sent_at" timestamptz null, constraint "digest_pkey" primary key ("id"));',
    );
    this.addSql('create index "digest_status_next_attempt_at_index" on "digest" ("status", "next_attempt_at");');
    this.addSql('create index "digest_created_at_index" on "digest" ("created_at");');
  }
}
