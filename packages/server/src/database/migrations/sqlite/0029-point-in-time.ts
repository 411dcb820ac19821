import { Migration } from '@mikro-orm/migrations';

/** Policy versions, waiver history and daily compliance snapshots (filled in by the point-in-time change). */
export class PointInTime extends Migration {
  override async up(): Promise<void> {}
}
