import { Migration } from '@mikro-orm/migrations';

/** People's signed-in sessions: the hash of the cookie's random id, the account, and when the session ends. */
export class Sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `user_session` (`id` text not null, `user_id` text not null, `created_at` datetime not null, `last_seen_at` datetime not null, `expires_at` datetime not null, primary key (`id`));',
    );
    this.addSql('create index `user_session_user_id_index` on `user_session` (`user_id`);');
  }
}
