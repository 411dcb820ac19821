import { Migration } from '@mikro-orm/migrations';

/**
 * Counts kept with the rows they count, so that fleet-wide figures are read rather than grouped: the hosts holding
 * each finding, and the hosts with each status on each policy rule, each policy and over every policy (the nil UUID's
 * counts). Filled here from the rows already held.
 */
export class FleetCounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "finding_count" ("kind" varchar(10) not null, "test_id" varchar(64) not null, "hosts" int not null, constraint "finding_count_pkey" primary key ("kind", "test_id"));',
    );
    this.addSql('insert into finding_count (kind, test_id, hosts) select kind, test_id, count(*) from host_finding group by kind, test_id;');
    this.addSql(
      'create table "policy_status_count" ("policy_id" uuid not null, "rule_id" varchar(64) not null, "status" varchar(8) not null, "hosts" int not null, constraint "policy_status_count_pkey" primary key ("policy_id", "rule_id", "status"));',
    );
    this.addSql(
      'insert into policy_status_count (policy_id, rule_id, status, hosts) select policy_id, rule_id, status, count(*) from policy_result group by policy_id, rule_id, status;',
    );
    this.addSql(
      "insert into policy_status_count (policy_id, rule_id, status, hosts) select policy_id, '', case worst when 4 then 'fail' when 3 then 'error' when 2 then 'waived' else 'pass' end, count(*) from (select policy_id, host_record_id, max(case status when 'fail' then 4 when 'error' then 3 when 'waived' then 2 else 1 end) as worst from policy_result group by policy_id, host_record_id) as per_host group by policy_id, worst;",
    );
    this.addSql(
      "insert into policy_status_count (policy_id, rule_id, status, hosts) select '00000000-0000-0000-0000-000000000000', '', case worst when 4 then 'fail' when 3 then 'error' when 2 then 'waived' else 'pass' end, count(*) from (select host_record_id, max(case status when 'fail' then 4 when 'error' then 3 when 'waived' then 2 else 1 end) as worst from policy_result group by host_record_id) as per_host group by worst;",
    );
  }
}
