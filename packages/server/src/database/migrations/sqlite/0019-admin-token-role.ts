import { Migration } from '@mikro-orm/migrations';

/** Each admin token's role (`viewer`, `operator` or `admin`): the tokens made before roles could do everything, so they become `admin`. */
export class AdminTokenRole extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table `admin_token` add column `role` text not null default 'admin';");
  }
}
