import { Migration } from '@mikro-orm/migrations';

/**
 * The audit trail: entries chained by hash in `sequence` order, and the chain's head (one row: the last sequence
 * and hash, 64 zeros before the first entry), which appending locks first.
 */
export class AuditTrail extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table `audit_chain_head` (`id` integer not null, `sequence` integer not null, `hash` text not null, primary key (`id`));');
    this.addSql(`insert into \`audit_chain_head\` (\`id\`, \`sequence\`, \`hash\`) values (1, 0, '${'0'.repeat(64)}');`);
    this.addSql(
      'create table `audit_event` (`sequence` integer not null, `id` text not null, `at` datetime not null, `actor_kind` text not null, `actor_id` text null, `actor_name` text null, `actor_role` text null, `operation` text not null, `target_type` text null, `target_id` text null, `changes` text null, `outcome` text not null, `status` integer not null, `source_address` text null, `user_agent` text null, `request_id` text null, `previous_hash` text not null, `hash` text not null, primary key (`sequence`));',
    );
    this.addSql('create unique index `audit_event_id_unique` on `audit_event` (`id`);');
    this.addSql('create index `audit_event_at_index` on `audit_event` (`at`);');
    this.addSql('create index `audit_event_actor_name_index` on `audit_event` (`actor_name`);');
    this.addSql('create index `audit_event_operation_index` on `audit_event` (`operation`);');
  }
}
