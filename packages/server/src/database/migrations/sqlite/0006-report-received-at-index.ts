import { Migration } from '@mikro-orm/migrations';

/** Reports newest first over the whole fleet: the admin API's report list sorted 300,000 rows without it. */
export class ReportReceivedAtIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index `report_received_at_id_index` on `report` (`received_at`, `id`);');
  }
}
