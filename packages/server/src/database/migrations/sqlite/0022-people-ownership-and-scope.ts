import { Migration } from '@mikro-orm/migrations';

/**
 * Tokens belong to someone and people and tokens may be scoped. Admin tokens gain a kind (`personal`, a person's,
 * or `service`, a named service account's), an owner, a service account, an expiry and a scope (JSON arrays of
 * customer names and system groups); the tokens made before become `admin` service tokens named after their
 * label. Accounts gain a scope, the time of their last sign-in and their single sign-on identity (issuer and
 * subject), and may have no password (single sign-on only): SQLite cannot drop a NOT NULL, so `app_user` is rebuilt.
 */
export class PeopleOwnershipAndScope extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table `admin_token` add column `kind` text not null default 'service';");
    this.addSql('alter table `admin_token` add column `owner_user_id` text null;');
    this.addSql('alter table `admin_token` add column `service_account` text null;');
    this.addSql('alter table `admin_token` add column `expires_at` datetime null;');
    this.addSql('alter table `admin_token` add column `scope_customers` text null;');
    this.addSql('alter table `admin_token` add column `scope_groups` text null;');
    this.addSql("update `admin_token` set `service_account` = coalesce(`label`, 'admin token');");
    this.addSql('create index `admin_token_owner_user_id_index` on `admin_token` (`owner_user_id`);');
    this.addSql(
      'create table `app_user_next` (`id` text not null, `email` text not null, `display_name` text null, `role` text not null, `disabled_at` datetime null, `password_hash` text null, `created_at` datetime not null, `updated_at` datetime not null, `password_changed_at` datetime not null, `last_sign_in_at` datetime null, `scope_customers` text null, `scope_groups` text null, `oidc_issuer` text null, `oidc_subject` text null, primary key (`id`));',
    );
    this.addSql(
      'insert into `app_user_next` (`id`, `email`, `display_name`, `role`, `disabled_at`, `password_hash`, `created_at`, `updated_at`, `password_changed_at`) select `id`, `email`, `display_name`, `role`, `disabled_at`, `password_hash`, `created_at`, `updated_at`, `password_changed_at` from `app_user`;',
    );
    this.addSql('drop table `app_user`;');
    this.addSql('alter table `app_user_next` rename to `app_user`;');
    this.addSql('create unique index `app_user_email_unique` on `app_user` (`email`);');
    this.addSql('create unique index `app_user_oidc_identity_unique` on `app_user` (`oidc_issuer`, `oidc_subject`);');
  }
}
