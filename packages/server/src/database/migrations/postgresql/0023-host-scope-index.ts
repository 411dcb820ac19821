import { Migration } from '@mikro-orm/migrations';

/**
 * People and tokens scoped to customers see the hosts whose newest report names one of them: an index on the host's
 * customer, so that every read of a scoped actor finds its hosts without reading every host.
 */
export class HostScopeIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "host_customer_name_index" on "host" ("customer_name");');
  }
}
