import { Migration } from '@mikro-orm/migrations';

/**
 * Time to fix at fleet size: the oldest findings still open are read in the order of an index (first seen, then id)
 * instead of sorting every open finding, and a window's resolutions are found by state and time.
 */
export class TimeToFixIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "finding_first_seen_id_index" on "finding" ("first_seen", "id");');
    this.addSql('create index "finding_transition_to_state_at_index" on "finding_transition" ("to_state", "at");');
  }
}
