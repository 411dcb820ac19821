import { Migration } from '@mikro-orm/migrations';

/** License keys (hashed), hosts, reports with their Lynis summary, admin tokens: the SQLite schema as of its 0003. */
export class InitialSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "license_key" ("id" uuid not null, "key_hash" varchar(64) not null, "prefix" varchar(8) not null, "label" varchar(255) null, "created_at" timestamptz not null, "revoked_at" timestamptz null, "expires_at" timestamptz null, "last_used_at" timestamptz null, "revision" int not null default 0, constraint "license_key_pkey" primary key ("id"));',
    );
    this.addSql('alter table "license_key" add constraint "license_key_key_hash_unique" unique ("key_hash");');

    this.addSql(
      'create table "host" ("id" uuid not null, "key_id" uuid not null, "host_id" varchar(255) not null, "host_id2" varchar(255) null, "hostname" varchar(255) null, "os_name" varchar(255) null, "lynis_version" varchar(255) null, "first_seen" timestamptz not null, "last_seen" timestamptz not null, "report_count" int not null, "latest_report_id" uuid null, "latest_hardening_index" int null, constraint "host_pkey" primary key ("id"));',
    );
    this.addSql('create index "host_hostname_index" on "host" ("hostname");');
    this.addSql('create index "host_last_seen_index" on "host" ("last_seen");');
    this.addSql('alter table "host" add constraint "host_key_id_host_id_unique" unique ("key_id", "host_id");');
    this.addSql('alter table "host" add constraint "host_key_id_foreign" foreign key ("key_id") references "license_key" ("id") on update cascade;');

    this.addSql(
      'create table "report" ("id" uuid not null, "key_id" uuid not null, "host_record_id" uuid not null, "host_id" varchar(255) not null, "host_id2" varchar(255) null, "received_at" timestamptz not null, "encoding" varchar(8) not null, "size" int not null, "sha256" varchar(64) not null, "content" bytea not null, "hostname" varchar(255) null, "lynis_version" varchar(255) null, "hardening_index" int null, "warning_count" int null, "suggestion_count" int null, constraint "report_pkey" primary key ("id"));',
    );
    this.addSql('create index "report_key_id_received_at_index" on "report" ("key_id", "received_at");');
    this.addSql('create index "report_host_record_id_received_at_index" on "report" ("host_record_id", "received_at");');
    this.addSql('alter table "report" add constraint "report_key_id_foreign" foreign key ("key_id") references "license_key" ("id") on update cascade;');
    this.addSql(
      'alter table "report" add constraint "report_host_record_id_foreign" foreign key ("host_record_id") references "host" ("id") on update cascade;',
    );

    this.addSql(
      'create table "admin_token" ("id" uuid not null, "token_hash" varchar(64) not null, "prefix" varchar(8) not null, "label" varchar(255) null, "created_at" timestamptz not null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, constraint "admin_token_pkey" primary key ("id"));',
    );
    this.addSql('alter table "admin_token" add constraint "admin_token_token_hash_unique" unique ("token_hash");');
  }
}
