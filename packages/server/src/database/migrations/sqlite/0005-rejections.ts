import { Migration } from '@mikro-orm/migrations';

/** Refused license checks and uploads, counted per day, operation, reason, key, `hostid` and client address. */
export class Rejections extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `rejection` (`day` text not null, `operation` text not null, `reason` text not null, `key_id` text not null, `host_id` text not null, `remote_address` text not null, `folded` integer not null, `count` integer not null, `first_at` datetime not null, `last_at` datetime not null, primary key (`day`, `operation`, `reason`, `key_id`, `host_id`, `remote_address`, `folded`));',
    );
  }
}
