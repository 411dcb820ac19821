import { Migration } from '@mikro-orm/migrations';

/** Framework controls mapped to Lynis test ids and rules, as imported from mapping files (`framework_control`). */
export class Controls extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `framework_control` (`id` text not null, `framework` text not null, `control_id` text not null, `title` text null, `test_ids` text not null, `rule_ids` text not null, `imported_at` datetime not null, primary key (`id`));',
    );
    this.addSql('create unique index `framework_control_framework_control_id_unique` on `framework_control` (`framework`, `control_id`);');
  }
}
