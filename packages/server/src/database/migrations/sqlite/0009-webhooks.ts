import { Migration } from '@mikro-orm/migrations';

/** Webhook subscriptions, the outbox of events, the delivery log, and the once-per-subject notices. */
export class Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `webhook_delivery` (`id` text not null, `webhook_id` text not null, `event_id` text not null, `event_type` text not null, `payload` text not null, `status` text not null, `attempts` integer not null, `next_attempt_at` datetime null, `claimed_until` datetime null, `last_status_code` integer null, `last_error` text null, `created_at` datetime not null, `delivered_at` datetime null, primary key (`id`));',
    );
    this.addSql('create index `webhook_delivery_status_next_attempt_at_index` on `webhook_delivery` (`status`, `next_attempt_at`);');
    this.addSql('create index `webhook_delivery_webhook_id_created_at_index` on `webhook_delivery` (`webhook_id`, `created_at`);');
    this.addSql(
      'create table `webhook_event` (`id` text not null, `type` text not null, `data` text not null, `created_at` datetime not null, `dispatched` integer not null, primary key (`id`));',
    );
    this.addSql('create index `webhook_event_dispatched_created_at_index` on `webhook_event` (`dispatched`, `created_at`);');
    this.addSql(
      'create table `webhook_notice` (`kind` text not null, `subject` text not null, `notified_at` datetime not null, primary key (`kind`, `subject`));',
    );
    this.addSql(
      'create table `webhook` (`id` text not null, `url` text not null, `description` text null, `events` text not null, `format` text not null, `enabled` integer not null, `stale_days` integer not null, `regression_threshold` integer not null, `secret` text not null, `created_at` datetime not null, `updated_at` datetime not null, primary key (`id`));',
    );
  }
}
