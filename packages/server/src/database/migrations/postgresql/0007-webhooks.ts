import { Migration } from '@mikro-orm/migrations';

/** Webhook subscriptions, the outbox of events, the delivery log, and the once-per-subject notices. */
export class Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "webhook_delivery" ("id" uuid not null, "webhook_id" uuid not null, "event_id" varchar(40) not null, "event_type" varchar(32) not null, "payload" text not null, "status" varchar(10) not null, "attempts" int not null, "next_attempt_at" timestamptz null, "claimed_until" timestamptz null, "last_status_code" int null, "last_error" varchar(500) null, "created_at" timestamptz not null, "delivered_at" timestamptz null, constraint "webhook_delivery_pkey" primary key ("id"));',
    );
    this.addSql('create index "webhook_delivery_status_next_attempt_at_index" on "webhook_delivery" ("status", "next_attempt_at");');
    this.addSql('create index "webhook_delivery_webhook_id_created_at_index" on "webhook_delivery" ("webhook_id", "created_at");');
    this.addSql(
      'create table "webhook_event" ("id" varchar(40) not null, "type" varchar(32) not null, "data" text not null, "created_at" timestamptz not null, "dispatched" boolean not null, constraint "webhook_event_pkey" primary key ("id"));',
    );
    this.addSql('create index "webhook_event_dispatched_created_at_index" on "webhook_event" ("dispatched", "created_at");');
    this.addSql(
      'create table "webhook_notice" ("kind" varchar(32) not null, "subject" varchar(400) not null, "notified_at" timestamptz not null, constraint "webhook_notice_pkey" primary key ("kind", "subject"));',
    );
    this.addSql(
      'create table "webhook" ("id" uuid not null, "url" text not null, "description" varchar(500) null, "events" varchar(255) not null, "format" varchar(8) not null, "enabled" boolean not null, "stale_days" int not null, "regression_threshold" int not null, "secret" varchar(64) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "webhook_pkey" primary key ("id"));',
    );
  }
}
