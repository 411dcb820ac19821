import { Migration } from '@mikro-orm/migrations';

/**
 * A policy's results pages read in order from an index rather than sorting every result: each result holds the host
 * name of the report it was evaluated on (and whether there is none, as names sort with none last), indexed by
 * policy and stored status, and by policy, rule and stored status, then by that name, host and rule. Filled here
 * from the hosts' names. The index of a host's results also holds their policy.
 */
export class PolicyResultOrder extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `policy_result` add column `hostname` text null;');
    this.addSql('alter table `policy_result` add column `nameless` integer not null default false;');
    this.addSql('update `policy_result` set `hostname` = (select `hostname` from `host` where `host`.`id` = `policy_result`.`host_record_id`);');
    this.addSql('update `policy_result` set `nameless` = `hostname` is null;');
    this.addSql('create index `policy_result_page_index` on `policy_result` (`policy_id`, `status`, `nameless`, `hostname`, `host_record_id`, `rule_id`);');
    this.addSql(
      'create index `policy_result_rule_page_index` on `policy_result` (`policy_id`, `rule_id`, `status`, `nameless`, `hostname`, `host_record_id`);',
    );
    // A host's results on a policy (those a waiver names) found by both, even where the planner knows nothing of the
    // table: with the host alone in it, PostgreSQL read the policy's results in the primary key for each waiver.
    this.addSql('drop index `policy_result_host_record_id_index`;');
    this.addSql('create index `policy_result_host_record_id_policy_id_index` on `policy_result` (`host_record_id`, `policy_id`);');
  }
}
