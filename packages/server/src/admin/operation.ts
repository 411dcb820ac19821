import type { AuditLogger } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import type { AdminResponse } from './responses.js';

/** What every admin operation works with. */
export interface AdminContext {
  database: Database;
  /** Where changes made through the API are logged, with the id of the admin token that made them. */
  logger: AuditLogger;
  /** Woken when policies change, so hosts are evaluated again soon. */
  policyEvaluator?: { wake(): void };
  /** Woken when a delivery is queued again. */
  webhookDispatcher?: { wake(): void };
  /** Whether webhook URLs may name loopback, private and link-local hosts (`--webhook-allow-private`). */
  webhookAllowPrivate: boolean;
}

/** A validated admin request: parameters coerced to their contract types, defaults filled in. */
export interface AdminInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The JSON body, `{}` when none was sent, with the contract's defaults filled in. */
  body: Record<string, unknown>;
  /** The id of the admin token the request authenticated with. */
  tokenId: string;
}

/** One operation of the admin API. */
export type AdminOperation = (input: AdminInput, context: AdminContext) => Promise<AdminResponse>;
