import type { Request, Response } from 'express';
import type { AuditRateLimiter } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { enrollmentForScript, type ScriptRefusal } from './enrollments.js';
import { ENROLLMENT_SECRET_PATTERN } from './enrollment-secret.js';
import { renderEnrollScript } from './enroll-script.js';
import { plainHostName, type EnrollmentSettings } from './enrollment-settings.js';

/** One fetch of the enroll script, as the audit trail records it: never the secret. */
export interface ScriptFetch {
  /** The enrollment the secret belongs to; null for a missing or unknown secret. */
  enrollmentId: string | null;
  outcome: 'success' | 'denied';
  status: number;
  /** Why no script was served (`unknown`, `revoked`, `expired`, `full`). */
  refusal: ScriptRefusal['reason'] | null;
  sourceAddress: string | null;
  userAgent: string | null;
}

/** What serving the script needs. */
export interface EnrollScriptRouteOptions {
  database: Database;
  settings: EnrollmentSettings;
  rateLimiter?: AuditRateLimiter;
  /** Told of every fetch, served or refused (the audit trail). */
  onFetch: (fetch: ScriptFetch) => Promise<void>;
}

const REFUSED = 'Unknown, revoked or expired enrollment';

/**
 * `GET /enroll.sh` on the intake listener: the script of the enrollment whose secret the `Authorization: Bearer`
 * header carries, or 401 in plain text without a script. Requests count against the client's address; a refused
 * secret counts as a failed key check, so guessing secrets meets the same limit as guessing keys.
 */
export function enrollScriptRoute(options: EnrollScriptRouteOptions): (req: Request, res: Response) => Promise<void> {
  const { database, settings, rateLimiter, onFetch } = options;
  return async (req, res) => {
    res.setHeader('cache-control', 'no-store');
    const sourceAddress = req.ip ?? null;
    if (rateLimiter && sourceAddress) {
      const decision = await rateLimiter.consumeRequest(sourceAddress);
      if (!decision.allowed) {
        res.status(429).setHeader('retry-after', String(Math.max(1, Math.ceil(decision.retryAfterSeconds))));
        res.type('text/plain').send('Too many requests');
        return;
      }
    }
    const fetch = { sourceAddress, userAgent: req.get('user-agent') ?? null };
    const secret = /^Bearer (\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    const found = secret && ENROLLMENT_SECRET_PATTERN.test(secret) ? await enrollmentForScript(database, secret) : ({ reason: 'unknown' } as const);
    if ('reason' in found) {
      if (rateLimiter && sourceAddress) await rateLimiter.recordFailure(sourceAddress);
      await onFetch({ ...fetch, enrollmentId: 'enrollmentId' in found ? found.enrollmentId : null, outcome: 'denied', status: 401, refusal: found.reason });
      res.status(401).setHeader('www-authenticate', 'Bearer');
      res.type('text/plain').send(REFUSED);
      return;
    }
    const { enrollment, alias } = found;
    if (!plainHostName(req.hostname) && !settings.hasPublicHost) {
      res.status(400).type('text/plain').send('The Host header names no usable host name');
      return;
    }
    const script = renderEnrollScript({
      intake: settings.intakeAddress(req.hostname),
      auditPrefix: settings.auditPrefix,
      licenseKeyAlias: alias,
      systemGroups: enrollment.systemGroups,
      tags: enrollment.tags,
      customer: enrollment.customer,
      dashboardUrl: settings.dashboardUrl(req.hostname),
    });
    await onFetch({ ...fetch, enrollmentId: enrollment.id, outcome: 'success', status: 200, refusal: null });
    res.status(200).type('text/x-shellscript; charset=utf-8').send(script);
  };
}
