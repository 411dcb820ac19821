import { Migration } from '@mikro-orm/migrations';

/**
 * Local user accounts: a lowercased email that names one account, a role, a disabled time, and the password only as
 * an argon2id hash.
 */
export class Users extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `app_user` (`id` text not null, `email` text not null, `display_name` text null, `role` text not null, `disabled_at` datetime null, `password_hash` text not null, `created_at` datetime not null, `updated_at` datetime not null, `password_changed_at` datetime not null, primary key (`id`));',
    );
    this.addSql('create unique index `app_user_email_unique` on `app_user` (`email`);');
  }
}
