import { Migration } from '@mikro-orm/migrations';

/**
 * Scheduled digests: schedules (`digest_schedule`: scope, cadence, recipients, when next due) and the digests they
 * issued (`digest`: the figures frozen as JSON, and the email's delivery: status, attempts, last error, next attempt).
 */
export class Digests extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `digest_schedule` (`id` text not null, `scope_group` text null, `scope_customer` text null, `cadence` text not null, `recipients` text not null, `created_at` datetime not null, `created_by` text null, `last_issued_at` datetime null, `next_due_at` datetime not null, primary key (`id`));',
    );
    this.addSql('create index `digest_schedule_next_due_at_index` on `digest_schedule` (`next_due_at`);');
    this.addSql(
      'create table `digest` (`id` text not null, `schedule_id` text null, `scope_group` text null, `scope_customer` text null, `cadence` text not null, `period_start` datetime not null, `period_end` datetime not null, `created_at` datetime not null, `recipients` text not null, `content` text not null, `status` text not null, `attempts` integer not null default 0, `last_error` text null, `next_attempt_at` datetime null, `claimed_until` datetime null, `sent_at` datetime null, primary key (`id`));',
    );
    this.addSql('create index `digest_status_next_attempt_at_index` on `digest` (`status`, `next_attempt_at`);');
    this.addSql('create index `digest_created_at_index` on `digest` (`created_at`);');
  }
}
