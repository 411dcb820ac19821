import { Migration } from '@mikro-orm/migrations';

/**
 * The host a webhook delivery's event is about, kept beside the payload: a Slack payload is only text, and the
 * outbox event it came from is gone once fanned out.
 */
export class WebhookDeliveryHost extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `webhook_delivery` add column `host_record_id` text null;');
    this.addSql('alter table `webhook_delivery` add column `hostname` text null;');
  }
}
