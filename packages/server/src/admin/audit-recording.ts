import { randomUUID } from 'node:crypto';
import { describeFailure, type AuditLogger } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import type { AuditOutcome } from '../generated/types.gen.js';
import { appendAuditEvent } from '../audit/audit-append.js';
import { tokenActorName } from '../audit/audit-actors.js';
import type { AuditActor, AuditEntry, AuditNote } from '../audit/audit-entry.js';
import { withoutSecrets } from '../audit/audit-redaction.js';
import type { AdminActor } from './operation.js';
import type { AdminResponse } from './responses.js';

/** What one admin request tells its audit entry as it is answered: who made it (once known) and the handler's note. */
export interface RequestTrail {
  actor?: AdminActor;
  note: AuditNote;
}

/** The operation a request was routed to: its id, whether anyone may call it, and its path parameters and query. */
export interface RoutedOperation {
  operationId: string;
  open: boolean;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
}

/** Operations recorded whatever their method: signing in and out (single sign-on's callback is a GET). */
const SESSION_OPERATIONS = new Set(['signIn', 'signOut', 'finishSsoSignIn']);

/** What a path parameter names, as an entry's target type. */
const TARGET_OF_PARAMETER: Record<string, string> = {
  keyId: 'license-key',
  waiverId: 'waiver',
  policyId: 'policy',
  webhookId: 'webhook',
  deliveryId: 'webhook-delivery',
  hostRecordId: 'host',
  userId: 'user',
  tokenId: 'token',
  enrollmentId: 'enrollment',
  findingId: 'finding',
};

/** What a collection's create makes, by the path's segment after `/api/admin/`. */
const TARGET_OF_COLLECTION: Record<string, string> = {
  keys: 'license-key',
  waivers: 'waiver',
  policies: 'policy',
  webhooks: 'webhook',
  users: 'user',
  tokens: 'token',
  enrollments: 'enrollment',
};

/** Whether a request to the operation goes into the audit trail: every change, every export, signing in and out. */
export function isAudited(operationId: string, method: string): boolean {
  return !['GET', 'HEAD'].includes(method.toUpperCase()) || operationId.startsWith('export') || SESSION_OPERATIONS.has(operationId);
}

/**
 * An answer's outcome: `denied` for who asked (401, 403, 429), `failure` for the input or the state, else `success`.
 * A 401 from an operation anyone may call is the handler's answer to the credentials given (a wrong password): a
 * failure; a lockout after too many of them (429) is denied.
 */
export function auditOutcome(status: number, open: boolean): AuditOutcome {
  if (status < 400) return 'success';
  if (status === 403 || status === 429 || (status === 401 && !open)) return 'denied';
  return 'failure';
}

/** Where entries are written and who hears of them. */
export interface AuditRecording {
  database: Database;
  logger: AuditLogger;
  webhookDispatcher?: { wake(): void };
}

/**
 * Writes the entry of one answered admin request. An entry that cannot be written does not change the answer (the
 * change it tells of is made): it is logged as an error, without the request's secrets.
 */
export async function recordAdminRequest(
  recording: AuditRecording,
  request: { method: string; path: string; headers: Record<string, unknown>; remoteAddress?: string },
  operation: RoutedOperation,
  trail: RequestTrail,
  response: AdminResponse,
): Promise<void> {
  try {
    const entry: AuditEntry = {
      actor: trail.note.actor ?? (await auditActor(recording.database, trail.actor)),
      operation: operation.operationId,
      target: trail.note.target ?? targetOf(request.path, operation, response),
      changes: changesOf(operation, trail.note),
      outcome: trail.note.outcome ?? auditOutcome(response.status, operation.open),
      status: response.status,
      sourceAddress: request.remoteAddress ?? null,
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
      requestId: randomUUID(),
    };
    await appendAuditEvent(recording.database, entry);
    recording.webhookDispatcher?.wake();
  } catch (error) {
    recording.logger.error(
      { error: describeFailure(error), operation: operation.operationId, status: response.status },
      'could not write the audit entry of an admin request (its answer stands)',
    );
  }
}

/** The entry's actor: the person or token of the request (a token named by its service account or label), or no one. */
async function auditActor(database: Database, actor: AdminActor | undefined): Promise<AuditActor> {
  if (!actor) return { kind: 'anonymous', id: null, name: null, role: null };
  if (actor.kind === 'user') return { kind: 'user', id: actor.user.id, name: actor.user.email, role: actor.role };
  return { kind: 'token', id: actor.tokenId, name: await tokenActorName(database, actor.tokenId), role: actor.role };
}

/** The thing acted on: the path's last parameter that names one, else for a create the answer's `id`. */
function targetOf(path: string, operation: RoutedOperation, response: AdminResponse): AuditEntry['target'] {
  const named = Object.keys(operation.params).filter((name) => name in TARGET_OF_PARAMETER);
  const last = named.at(-1);
  if (last) return { type: TARGET_OF_PARAMETER[last]!, id: String(operation.params[last]) };
  const collection = TARGET_OF_COLLECTION[path.split('/').at(-1) ?? ''];
  if (!collection || operation.operationId.startsWith('export')) return null;
  return { type: collection, id: response.status === 201 ? createdId(response) : null };
}

/** The `id` of a create's JSON answer: its own, or that of the one object it wraps (`{ key: { id, … }, licenseKey }`). */
function createdId(response: AdminResponse): string | null {
  if (typeof response.body !== 'string') return null;
  try {
    const body = JSON.parse(response.body) as Record<string, unknown>;
    const ids = [body, ...Object.values(body)].map((value) => (value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : undefined));
    return ids.find((id): id is string => typeof id === 'string') ?? null;
  } catch {
    return null;
  }
}

/** What changed, as the handler noted it; for an export, the filters it was asked for. Never a secret field. */
function changesOf(operation: RoutedOperation, note: AuditNote): Record<string, unknown> | null {
  const changes = note.changes ?? (operation.operationId.startsWith('export') ? { filters: operation.query } : undefined);
  return changes === undefined ? null : (withoutSecrets(changes) as Record<string, unknown>);
}
