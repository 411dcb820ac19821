import { Migration } from '@mikro-orm/migrations';

/** Quarantine of policies whose rules overrun their budget, and the policies being evaluated (crash evidence). */
export class PolicyQuarantine extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "policy" add column "strikes" int not null default 0;');
    this.addSql('alter table "policy" add column "quarantined_at" timestamptz null;');
    this.addSql('alter table "policy" add column "quarantine_reason" text null;');
    this.addSql(
      'create table "policy_run" ("policy_id" uuid not null, "run_id" varchar(36) not null, "expires_at" timestamptz not null, constraint "policy_run_pkey" primary key ("policy_id", "run_id"));',
    );
  }
}
