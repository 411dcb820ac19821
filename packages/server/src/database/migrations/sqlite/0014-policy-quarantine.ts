import { Migration } from '@mikro-orm/migrations';

/** Quarantine of policies whose rules overrun their budget, and the policies being evaluated (crash evidence). */
export class PolicyQuarantine extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `policy` add column `strikes` integer not null default 0;');
    this.addSql('alter table `policy` add column `quarantined_at` datetime null;');
    this.addSql('alter table `policy` add column `quarantine_reason` text null;');
    this.addSql(
      'create table `policy_run` (`policy_id` text not null, `run_id` text not null, `expires_at` datetime not null, primary key (`policy_id`, `run_id`));',
    );
  }
}
