import { Migration } from '@mikro-orm/migrations';

/** Single sign-on attempts between their start and the provider's answer: the hash of the cookie's random id, state, nonce, PKCE verifier. */
export class SsoAttempts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `sso_attempt` (`id` text not null, `state` text not null, `nonce` text not null, `code_verifier` text not null, `redirect_url` text not null, `created_at` datetime not null, primary key (`id`));',
    );
    this.addSql('create index `sso_attempt_created_at_index` on `sso_attempt` (`created_at`);');
  }
}
