import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { minimalReport } from '@org/test-support/lynis-report';
import { openDatabase, type Database } from '../database/open.js';
import { AdminTokenRecord } from '../database/entities.js';
import { expireAcceptances } from '../findings/finding-expiry.js';
import type { FindingAcceptanceSettings } from '../findings/finding-settings.js';
import type { TrackedFinding } from '../generated/types.gen.js';
import { hostRecordId } from '../hosts/host-records.js';
import { scopeColumns } from '../people/scope.js';
import { addUserWithPassword } from '../people/user-commands.js';
import { storeLynisText } from '../reports/lynis-upload.test-kit.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { createWebhook } from '../webhooks/webhook-records.js';
import { createAdminApi, type AdminApi } from './api.js';

const DAY_MS = 86_400_000;
const ORIGIN = 'https://audit.example.org';
const PASSWORD = 'correct horse battery staple';
const ADA = 'ada@example.org';
const GRACE = 'grace@example.org';

describe.each(DIALECTS)('finding lifecycle through the admin API on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let keyId: string;
  let operatorToken: string;
  let ids: { ada: string; grace: string };

  /** Stores a Lynis report of `hostId` made of `lines`, as an upload does. */
  const upload = (hostId: string, ...lines: string[]) =>
    storeLynisText(new OrmReportStore(database), { keyId, hostId, text: minimalReport(...lines), receivedAt: new Date() });

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ id: keyId } = await createKey(database));
    ({ token: operatorToken } = await createAdminToken(database, { label: 'ops-bot', role: 'operator' }));
    ids = {
      ada: (await addUserWithPassword(database, { email: ADA, role: 'admin' }, PASSWORD)).id,
      grace: (await addUserWithPassword(database, { email: GRACE, role: 'operator' }, PASSWORD)).id,
    };
    await createWebhook(database, { url: 'https://hooks.example.org/findings', events: ['finding.accepted', 'finding.acceptance_expired'] });
    await upload('web', 'hostname=web-01', 'warning[]=SSH-7408|Telnet is enabled|-|-|');
  });
  afterEach(async () => {
    await database.close();
  });

  const web = () => hostRecordId(keyId, 'web');
  const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

  /** A client of an admin API: as a token (`adm_…`) or a person's session cookie. */
  async function client(settings?: FindingAcceptanceSettings) {
    const api: AdminApi = await createAdminApi({ database, findingAcceptance: settings });
    const call = async (as: string, method: string, path: string, body?: unknown, query: Record<string, string> = {}) => {
      const response = await api.handle({
        method,
        path,
        query,
        origin: ORIGIN,
        headers: {
          ...(as.startsWith('adm_') ? { authorization: `Bearer ${as}` } : { cookie: as, origin: ORIGIN }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? { kind: 'none' } : { kind: 'json', value: body },
      });
      const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body as Uint8Array).toString();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & TrackedFinding };
    };
    const signIn = async (email: string) => {
      const response = await api.handle({
        method: 'POST',
        path: '/api/admin/session',
        query: {},
        origin: ORIGIN,
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: { kind: 'json', value: { email, password: PASSWORD } },
      });
      expect(response.status).toBe(204);
      return /__Host-audit_session=[A-Za-z0-9_-]{43}/.exec(JSON.stringify(response.headers))![0];
    };
    return { call, signIn };
  }
  const findingId = async (call: Awaited<ReturnType<typeof client>>['call'], as: string) =>
    ((await call(as, 'GET', `/api/admin/hosts/${web()}/findings`)).body.items as TrackedFinding[])[0]!.id;
  const outbox = async () => {
    const rows: { type: string; data: string }[] = await database.em.getKnex()('webhook_event').select('type', 'data');
    return rows.map((row) => `${row.type} ${(JSON.parse(row.data) as TrackedFinding).state}`);
  };

  it('acknowledges for the signed-in person, accepts with another approver, and reopens; owner=me lists a person’s findings', async () => {
    const { call, signIn } = await client();
    const grace = await signIn(GRACE);
    const id = await findingId(call, grace);

    const acknowledged = await call(grace, 'PATCH', `/api/admin/findings/${id}`, { state: 'acknowledged', dueAt: inDays(7) });
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body).toMatchObject({ state: 'acknowledged', ownerUserId: ids.grace, ownerEmail: GRACE, hostname: 'web-01', testId: 'SSH-7408' });
    expect((await call(grace, 'GET', '/api/admin/findings/tracked', undefined, { owner: 'me' })).body).toMatchObject({ total: 1 });
    expect((await call(grace, 'GET', '/api/admin/findings/tracked', undefined, { owner: ids.ada })).body).toMatchObject({ total: 0 });
    const tokenMe = await call(operatorToken, 'GET', '/api/admin/findings/tracked', undefined, { owner: 'me' });
    expect(tokenMe.status).toBe(400);
    // A token is no person: it names the owner.
    expect((await call(operatorToken, 'PATCH', `/api/admin/findings/${id}`, { state: 'acknowledged' })).status).toBe(400);

    const accept = { state: 'accepted', reason: 'Telnet kept until the migration', expiresAt: inDays(30) };
    const selfApproved = await call(grace, 'PATCH', `/api/admin/findings/${id}`, { ...accept, approverUserId: ids.grace });
    expect(selfApproved.status).toBe(400);
    expect(selfApproved.body.detail).toMatch(/another person/);
    expect((await call(grace, 'PATCH', `/api/admin/findings/${id}`, { ...accept, approverUserId: ids.ada, expiresAt: inDays(-1) })).status).toBe(400);
    const accepted = await call(grace, 'PATCH', `/api/admin/findings/${id}`, { ...accept, approverUserId: ids.ada });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      state: 'accepted',
      ownerEmail: GRACE,
      acceptance: { reason: accept.reason, requestedBy: GRACE, approverUserId: ids.ada, approverEmail: ADA, expiresAt: accept.expiresAt },
    });
    expect(await outbox()).toEqual(['finding.accepted accepted']);

    const reopened = await call(grace, 'PATCH', `/api/admin/findings/${id}`, { state: 'open' });
    expect(reopened.body).toMatchObject({ state: 'open', acceptance: null });
    expect((await call(grace, 'PATCH', `/api/admin/findings/${id}`, { state: 'open' })).status).toBe(409);
    const history = (await database.em.getKnex()('finding_transition').select('to_state', 'actor').where('finding_id', id).orderBy('at')) as {
      to_state: string;
      actor: string | null;
    }[];
    expect(history.map((row) => `${row.to_state} ${row.actor ?? 'server'}`)).toEqual([
      'open server',
      'acknowledged grace@example.org',
      'accepted grace@example.org',
      'open grace@example.org',
    ]);
    // The audit trail names the finding as the target.
    const audit = (await database.em.getKnex()('audit_event').select('target_type', 'target_id').where('operation', 'updateFinding')) as {
      target_type: string;
      target_id: string;
    }[];
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.every((row) => row.target_type === 'finding' && row.target_id === id)).toBe(true);
  });

  it('reopens an accepted finding by itself once its acceptance expires, with one event', async () => {
    const { call, signIn } = await client({ approval: 'any', acceptRole: 'operator' });
    const grace = await signIn(GRACE);
    const id = await findingId(call, grace);
    // `any`: the person asking may approve.
    const accepted = await call(grace, 'PATCH', `/api/admin/findings/${id}`, {
      state: 'accepted',
      reason: 'Until Friday',
      expiresAt: inDays(2),
      approverUserId: ids.grace,
    });
    expect(accepted.status).toBe(200);
    expect(await expireAcceptances(database, new Date(Date.now() + DAY_MS))).toBe(0);
    expect(await expireAcceptances(database, new Date(Date.now() + 3 * DAY_MS))).toBe(1);
    expect((await call(grace, 'GET', `/api/admin/hosts/${web()}/findings`)).body.items).toMatchObject([{ id, state: 'open', acceptance: null }]);
    expect(await expireAcceptances(database, new Date(Date.now() + 4 * DAY_MS))).toBe(0);
    expect((await outbox()).sort()).toEqual(['finding.acceptance_expired open', 'finding.accepted accepted']);
  });

  it('lets only admins accept with --finding-accept-role admin: an operator gets 403 saying why', async () => {
    const { call, signIn } = await client({ approval: 'distinct', acceptRole: 'admin' });
    const [grace, ada] = [await signIn(GRACE), await signIn(ADA)];
    const id = await findingId(call, grace);
    const accept = { state: 'accepted', reason: 'Legacy', expiresAt: inDays(30) };
    const refused = await call(grace, 'PATCH', `/api/admin/findings/${id}`, { ...accept, approverUserId: ids.ada });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/requires the admin role.*--finding-accept-role.*operator role/);
    expect((await call(ada, 'PATCH', `/api/admin/findings/${id}`, { ...accept, approverUserId: ids.grace })).status).toBe(200);
    // Acknowledging stays an operator's.
    expect((await call(grace, 'PATCH', `/api/admin/findings/${id}`, { state: 'acknowledged' })).status).toBe(200);
  });

  it('answers 404 for a finding of a host out of scope, 409 for a resolved one, 403 to a viewer', async () => {
    const { call } = await client();
    const id = await findingId(call, operatorToken);
    const { id: scopedId, token: scoped } = await createAdminToken(database, { label: 'scoped', role: 'operator' });
    await database.em.fork().nativeUpdate(AdminTokenRecord, { id: scopedId }, scopeColumns({ customers: ['globex'], groups: [] }));
    expect((await call(scoped, 'GET', `/api/admin/hosts/${web()}/findings`)).status).toBe(404);
    expect((await call(scoped, 'PATCH', `/api/admin/findings/${id}`, { state: 'acknowledged', ownerUserId: ids.grace })).status).toBe(404);
    expect((await call(scoped, 'GET', '/api/admin/findings/tracked')).body).toMatchObject({ total: 0, items: [] });
    expect((await call(operatorToken, 'GET', '/api/admin/findings/tracked')).body).toMatchObject({ total: 1 });

    const { token: viewer } = await createAdminToken(database, { label: 'viewer', role: 'viewer' });
    expect((await call(viewer, 'PATCH', `/api/admin/findings/${id}`, { state: 'acknowledged', ownerUserId: ids.grace })).status).toBe(403);

    await database.em.getKnex()('finding').where('id', id).update({ state: 'resolved' });
    const conflict = await call(operatorToken, 'PATCH', `/api/admin/findings/${id}`, { state: 'acknowledged', ownerUserId: ids.grace });
    expect(conflict.status).toBe(409);
    expect((await call(operatorToken, 'GET', '/api/admin/findings/tracked', undefined, { state: 'resolved' })).body).toMatchObject({ total: 1 });
    expect((await call(operatorToken, 'GET', '/api/admin/findings/tracked', undefined, { state: 'open,regressed' })).body).toMatchObject({ total: 0 });
  });

  it("leaves Lynis' own finding out of the fleet's tracked findings unless asked for by test id; the host keeps it", async () => {
    await upload('old', 'hostname=old-01', 'warning[]=SSH-7408|Telnet is enabled|-|-|', 'suggestion[]=LYNIS|This release is more than 4 months old|-|-|');
    const { call } = await client();
    const tracked = (await call(operatorToken, 'GET', '/api/admin/findings/tracked')).body as unknown as { items: TrackedFinding[] };
    expect(tracked.items.map((finding) => finding.testId)).toEqual(['SSH-7408', 'SSH-7408']);
    expect((await call(operatorToken, 'GET', '/api/admin/findings/tracked', undefined, { testId: 'LYNIS' })).body).toMatchObject({ total: 1 });
    const own = (await call(operatorToken, 'GET', `/api/admin/hosts/${hostRecordId(keyId, 'old')}/findings`)).body as unknown as { items: TrackedFinding[] };
    expect(own.items.map((finding) => finding.testId).sort()).toEqual(['LYNIS', 'SSH-7408']);
  });
});
