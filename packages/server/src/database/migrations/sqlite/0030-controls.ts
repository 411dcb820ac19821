import { Migration } from '@mikro-orm/migrations';

/** Framework controls mapped to Lynis test ids and rules (filled in by the control mapping change). */
export class Controls extends Migration {
  override async up(): Promise<void> {}
}
