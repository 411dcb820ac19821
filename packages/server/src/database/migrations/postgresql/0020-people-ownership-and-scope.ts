import { Migration } from '@mikro-orm/migrations';

/**
 * Tokens belong to someone and people and tokens may be scoped. Admin tokens gain a kind (`personal`, a person's,
 * or `service`, a named service account's), an owner, a service account, an expiry and a scope (JSON arrays of
 * customer names and system groups); the tokens made before become `admin` service tokens named after their
 * label. Accounts gain a scope, the time of their last sign-in and their single sign-on identity (issuer and
 * subject), and may have no password (single sign-on only).
 */
export class PeopleOwnershipAndScope extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "admin_token" add column "kind" varchar(16) not null default \'service\', add column "owner_user_id" uuid null, add column "service_account" varchar(255) null, add column "expires_at" timestamptz null, add column "scope_customers" text null, add column "scope_groups" text null;',
    );
    this.addSql('update "admin_token" set "service_account" = coalesce("label", \'admin token\');');
    this.addSql('create index "admin_token_owner_user_id_index" on "admin_token" ("owner_user_id");');
    this.addSql(
      'alter table "app_user" alter column "password_hash" drop not null, add column "last_sign_in_at" timestamptz null, add column "scope_customers" text null, add column "scope_groups" text null, add column "oidc_issuer" varchar(1024) null, add column "oidc_subject" varchar(255) null;',
    );
    this.addSql('alter table "app_user" add constraint "app_user_oidc_identity_unique" unique ("oidc_issuer", "oidc_subject");');
  }
}
