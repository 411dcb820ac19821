import { Migration } from '@mikro-orm/migrations';

/** License keys (hashed) and reports. */
export class InitialSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `license_key` (`id` text not null, `key_hash` text not null, `prefix` text not null, `label` text null, `created_at` datetime not null, `revoked_at` datetime null, primary key (`id`));',
    );
    this.addSql('create unique index `license_key_key_hash_unique` on `license_key` (`key_hash`);');
    this.addSql(
      'create table `report` (`id` text not null, `key_id` text not null, `host_id` text not null, `host_id2` text null, `received_at` datetime not null, `encoding` text not null, `size` integer not null, `sha256` text not null, `content` blob not null, constraint `report_key_id_foreign` foreign key(`key_id`) references `license_key`(`id`) on update cascade, primary key (`id`));',
    );
    this.addSql('create index `report_key_id_index` on `report` (`key_id`);');
    this.addSql('create index `report_key_id_received_at_index` on `report` (`key_id`, `received_at`);');
    this.addSql('create index `report_host_id_index` on `report` (`host_id`);');
  }
}
