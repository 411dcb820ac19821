import { Migration } from '@mikro-orm/migrations';

/** Scheduled digests and their delivery (filled in by the digest change). */
export class Digests extends Migration {
  override async up(): Promise<void> {}
}
