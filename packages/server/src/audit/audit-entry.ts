import type { AuditEvent, AuditOutcome } from '../generated/types.gen.js';
import type { AuditEventRecord } from '../database/entities.js';

/** Who an entry says acted: a person, a token, or no one known (a sign-in that failed, a request without credentials). */
export interface AuditActor {
  kind: 'user' | 'token' | 'anonymous' | 'system';
  id: string | null;
  name: string | null;
  role: 'viewer' | 'operator' | 'admin' | null;
}

/** What an entry records, before it takes its place in the chain. */
export interface AuditEntry {
  actor: AuditActor;
  operation: string;
  target: { type: string; id: string | null } | null;
  changes: Record<string, unknown> | null;
  outcome: AuditOutcome;
  status: number;
  sourceAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** A stored entry as the contract's `AuditEvent`. */
export function toAuditEvent(record: AuditEventRecord): AuditEvent {
  return {
    sequence: record.sequence,
    id: record.id,
    at: record.at.toISOString(),
    // The generated type loses the contract's `nullable` on the role; an anonymous actor has none.
    actor: {
      kind: record.actorKind as AuditActor['kind'],
      id: record.actorId ?? null,
      name: record.actorName ?? null,
      role: (record.actorRole ?? null) as 'admin',
    },
    operation: record.operation,
    target: record.targetType ? { type: record.targetType, id: record.targetId ?? null } : null,
    changes: record.changes ? (JSON.parse(record.changes) as Record<string, unknown>) : null,
    outcome: record.outcome as AuditOutcome,
    status: record.status,
    sourceAddress: record.sourceAddress ?? null,
    userAgent: record.userAgent ?? null,
    requestId: record.requestId ?? null,
    previousHash: record.previousHash,
    hash: record.hash,
  };
}

/**
 * What a handler may add to its request's audit entry (`input.audit`), read once the handler is done: the thing it
 * acted on when the path does not name it, what changed (field by field, `{ before, after }`), and, for signing in,
 * who signed in (or the email tried). Secret fields are stripped before anything is stored.
 */
export interface AuditNote {
  target?: { type: string; id: string | null };
  /** The outcome when the status does not tell it: a refusal answered with a redirect, as single sign-on's are. */
  outcome?: AuditOutcome;
  changes?: Record<string, unknown>;
  actor?: AuditActor;
}

/** A person as an entry's actor: their account id, email and role. */
export const userActor = (user: { id: string; email: string; role: AuditActor['role'] }): AuditActor => ({
  kind: 'user',
  id: user.id,
  name: user.email,
  role: user.role,
});

/** No one known, by the name they gave (a failed sign-in's email tried). */
export const anonymousActor = (name: string | null = null): AuditActor => ({ kind: 'anonymous', id: null, name, role: null });
/** The server itself acting on its own, `rule` naming why (`host lifecycle`, `identity merge`). */
export const systemActor = (rule: string): AuditActor => ({ kind: 'system', id: null, name: rule, role: null });
