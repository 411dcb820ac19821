import { Migration } from '@mikro-orm/migrations';

/** The one-row table the readiness check writes to while writes fail (see `WriteHealth`). */
export class WriteProbe extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table `write_probe` (`id` integer not null, `written_at` datetime not null, `payload` blob not null, primary key (`id`));');
    // Datetimes are epoch milliseconds in SQLite (MikroORM's convention there).
    this.addSql("insert into `write_probe` (`id`, `written_at`, `payload`) values (1, cast(strftime('%s', 'now') as integer) * 1000, x'');");
  }
}
