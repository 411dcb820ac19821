import { Migration } from '@mikro-orm/migrations';

/** Framework controls mapped to Lynis test ids and rules, as imported from mapping files (`framework_control`). */
export class Controls extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "framework_control" ("id" uuid not null, "framework" varchar(40) not null, "control_id" varchar(64) not null, "title" varchar(500) null, "test_ids" text not null, "rule_ids" text not null, "imported_at" timestamptz not null, constraint "framework_control_pkey" primary key ("id"));',
    );
    this.addSql('alter table "framework_control" add constraint "framework_control_framework_control_id_unique" unique ("framework", "control_id");');
  }
}
