import { Migration } from '@mikro-orm/migrations';

/** People's signed-in sessions: the hash of the cookie's random id, the account, and when the session ends. */
export class Sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "user_session" ("id" varchar(64) not null, "user_id" uuid not null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, constraint "user_session_pkey" primary key ("id"));',
    );
    this.addSql('create index "user_session_user_id_index" on "user_session" ("user_id");');
  }
}
