import { Migration } from '@mikro-orm/migrations';

/** How many hosts hold each finding, kept with the findings' writes; filled here from the findings already held. */
export class FindingCounts extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table "finding_count" ("kind" varchar(10) not null, "test_id" varchar(64) not null, "hosts" int not null, constraint "finding_count_pkey" primary key ("kind", "test_id"));');
    this.addSql('insert into finding_count (kind, test_id, hosts) select kind, test_id, count(*) from host_finding group by kind, test_id;');
  }
}
