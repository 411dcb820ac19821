import { Migration } from '@mikro-orm/migrations';

/**
 * Uploads store reports as received (`pending`) and a background pass compresses them: the pass finds them with
 * this index, as reading the table would read every report.
 */
export class ReportCompactionIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index `report_content_encoding_index` on `report` (`content_encoding`);');
  }
}
