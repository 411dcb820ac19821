import { Migration } from '@mikro-orm/migrations';

/**
 * A cap on each webhook subscription's new deliveries a minute, and the events folded beyond it (one row per
 * subscription, until told in one summary delivery).
 */
export class WebhookDeliveryCap extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `webhook` add column `max_deliveries_per_minute` integer not null default 60;');
    this.addSql(
      'create table `webhook_fold` (`webhook_id` text not null, `counts` text not null, `event_ids` text not null, `total` integer not null, `first_at` datetime not null, `last_at` datetime not null, primary key (`webhook_id`));',
    );
  }
}
