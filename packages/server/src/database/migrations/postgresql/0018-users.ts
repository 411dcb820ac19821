import { Migration } from '@mikro-orm/migrations';

/**
 * Local user accounts: a lowercased email that names one account, a role, a disabled time, and the password only as
 * an argon2id hash.
 */
export class Users extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "app_user" ("id" uuid not null, "email" varchar(254) not null, "display_name" varchar(255) null, "role" varchar(16) not null, "disabled_at" timestamptz null, "password_hash" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "password_changed_at" timestamptz not null, constraint "app_user_pkey" primary key ("id"));',
    );
    this.addSql('alter table "app_user" add constraint "app_user_email_unique" unique ("email");');
  }
}
