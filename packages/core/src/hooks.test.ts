import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAuditApi, type AuditLogger } from './audit-api.js';
import type { AuditHooks } from './hooks.js';
import { InMemoryKeyStore, InMemoryReportStore } from './memory-stores.js';
import { minimalReport } from '@org/test-support/lynis-report';

const KEY = 'deadbeef-0000-0000-0000-000000000001';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function apiWith(hooks: AuditHooks) {
  const keyStore = new InMemoryKeyStore();
  keyStore.add(KEY);
  const reportStore = new InMemoryReportStore();
  const errors: { fields: object; message: string }[] = [];
  const logger: AuditLogger = { info() {}, warn() {}, error: (fields, message) => void errors.push({ fields, message }) };
  const api = await createAuditApi({ keyStore, reportStore, logger, hooks });
  const upload = (key: string) =>
    api.handle({
      method: 'POST',
      path: '/api/audit/upload/',
      headers: FORM,
      body: Readable.from([new URLSearchParams({ licensekey: key, hostid: 'h1', data: minimalReport('os=Linux') }).toString()]),
    });
  return { upload, errors, reportStore };
}

describe('hooks', () => {
  it('a hook that throws does not change the answer, and is logged without the key', async () => {
    const fail = () => {
      throw new Error('index unavailable');
    };
    const { upload, errors, reportStore } = await apiWith({ onReportStored: fail, onRequestRejected: fail, onRequestCompleted: fail });
    expect((await upload(KEY))?.status).toBe(200);
    expect((await upload('deadbeef'))?.status).toBe(401);
    expect(reportStore.reports.size).toBe(1);
    expect(errors.map((e) => [e.message, (e.fields as { hook: string }).hook])).toEqual([
      ['hook failed', 'onReportStored'],
      ['hook failed', 'onRequestCompleted'],
      ['hook failed', 'onRequestRejected'],
      ['hook failed', 'onRequestCompleted'],
    ]);
    expect(errors[0]!.fields).toMatchObject({ error: { type: 'Error', message: 'index unavailable' } });
    expect(JSON.stringify(errors)).not.toContain(KEY);
  });

  it('a hook whose promise rejects is logged and the request still succeeds', async () => {
    const { upload, errors } = await apiWith({ onReportStored: () => Promise.reject(new Error('queue full')) });
    expect((await upload(KEY))?.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([{ fields: { hook: 'onReportStored', error: { type: 'Error', message: 'queue full' } }, message: 'hook failed' }]);
  });

  it('a stored report is announced only after the store resolved', async () => {
    const order: string[] = [];
    const keyStore = new InMemoryKeyStore();
    keyStore.add(KEY);
    const api = await createAuditApi({
      keyStore,
      reportStore: { save: async () => (order.push('saved'), { id: 'r1' }) },
      hooks: { onReportStored: (event) => void order.push(`hook ${event.reportId}`) },
    });
    const body = Readable.from([new URLSearchParams({ licensekey: KEY, hostid: 'h1', data: minimalReport('os=Linux') }).toString()]);
    expect((await api.handle({ method: 'POST', path: '/api/audit/upload/', headers: FORM, body }))?.body).toBe('OK r1');
    expect(order).toEqual(['saved', 'hook r1']);
  });
});
