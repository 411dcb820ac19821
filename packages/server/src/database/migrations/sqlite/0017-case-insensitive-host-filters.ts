import { Migration } from '@mikro-orm/migrations';

/**
 * The host list's group, tag and OS filters compare case-insensitively (`lower(…) = lower(?)`): indexes on the
 * lowered values, so that those filters read an index rather than every label or host.
 */
export class CaseInsensitiveHostFilters extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index `host_label_kind_lower_value_index` on `host_label` (`kind`, lower(`value`), `host_record_id`);');
    this.addSql('create index `host_lower_os_name_index` on `host` (lower(`os_name`));');
  }
}
