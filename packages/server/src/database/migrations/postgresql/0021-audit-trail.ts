import { Migration } from '@mikro-orm/migrations';

/**
 * The audit trail: entries chained by hash in `sequence` order, and the chain's head (one row: the last sequence
 * and hash, 64 zeros before the first entry), which appending locks first (`select … for update`), so that servers
 * sharing the database append one after another.
 */
export class AuditTrail extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "audit_chain_head" ("id" int not null, "sequence" int not null, "hash" varchar(64) not null, constraint "audit_chain_head_pkey" primary key ("id"));',
    );
    this.addSql(`insert into "audit_chain_head" ("id", "sequence", "hash") values (1, 0, '${'0'.repeat(64)}');`);
    this.addSql(
      'create table "audit_event" ("sequence" int not null, "id" uuid not null, "at" timestamptz not null, "actor_kind" varchar(16) not null, "actor_id" varchar(255) null, "actor_name" varchar(255) null, "actor_role" varchar(16) null, "operation" varchar(64) not null, "target_type" varchar(64) null, "target_id" varchar(255) null, "changes" text null, "outcome" varchar(16) not null, "status" int not null, "source_address" varchar(64) null, "user_agent" varchar(512) null, "request_id" varchar(64) null, "previous_hash" varchar(64) not null, "hash" varchar(64) not null, constraint "audit_event_pkey" primary key ("sequence"));',
    );
    this.addSql('alter table "audit_event" add constraint "audit_event_id_unique" unique ("id");');
    this.addSql('create index "audit_event_at_index" on "audit_event" ("at");');
    this.addSql('create index "audit_event_actor_name_index" on "audit_event" ("actor_name");');
    this.addSql('create index "audit_event_operation_index" on "audit_event" ("operation");');
  }
}
