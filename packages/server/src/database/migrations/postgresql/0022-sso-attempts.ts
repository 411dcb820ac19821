import { Migration } from '@mikro-orm/migrations';

/** Single sign-on attempts between their start and the provider's answer: the hash of the cookie's random id, state, nonce, PKCE verifier. */
export class SsoAttempts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "sso_attempt" ("id" varchar(64) not null, "state" varchar(128) not null, "nonce" varchar(128) not null, "code_verifier" varchar(128) not null, "redirect_url" varchar(2048) not null, "created_at" timestamptz not null, constraint "sso_attempt_pkey" primary key ("id"));',
    );
    this.addSql('create index "sso_attempt_created_at_index" on "sso_attempt" ("created_at");');
  }
}
