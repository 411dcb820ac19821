import { Migration } from '@mikro-orm/migrations';

/**
 * The default time-to-fix answer, kept: its figures take seconds on a large fleet, so it is taken in the background
 * every few minutes and read from here.
 */
export class TimeToFixSnapshot extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `time_to_fix_snapshot` (`lynis_own_findings` text not null, `figures` text not null, `taken_at` datetime not null, `took_ms` integer not null, primary key (`lynis_own_findings`));',
    );
  }
}
