import { Migration } from '@mikro-orm/migrations';

/**
 * A cap on each webhook subscription's new deliveries a minute, and the events folded beyond it (one row per
 * subscription, until told in one summary delivery).
 */
export class WebhookDeliveryCap extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "webhook" add column "max_deliveries_per_minute" int not null default 60;');
    this.addSql(
      'create table "webhook_fold" ("webhook_id" uuid not null, "counts" text not null, "event_ids" text not null, "total" int not null, "first_at" timestamptz not null, "last_at" timestamptz not null, constraint "webhook_fold_pkey" primary key ("webhook_id"));',
    );
  }
}
