import { describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import type { OperationContext } from './contract-routes.js';
import type { ReportUploadForm } from './generated/types.gen.js';
import { InMemoryKeyStore } from './memory-stores.js';
import type { ReportStore, ReportToStore } from './stores.js';
import { uploadReport } from './upload-report.js';

const KEY = 'deadbeef-0000-0000-0000-000000000001';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('uploadReport', () => {
  it("no longer holds the form's text of the report while the report is being stored, and stores its bytes exactly", async () => {
    const report = readLynisFixture('report.dat');
    const keyStore = new InMemoryKeyStore();
    keyStore.add(KEY);
    const form: ReportUploadForm = { data: report.toString('latin1'), licensekey: KEY, hostid: 'web' };
    let textWhileSaving: string | undefined;
    let saved: ReportToStore | undefined;
    const reportStore: ReportStore = {
      save: async (toStore) => {
        textWhileSaving = form.data;
        saved = toStore;
        return { id: 'stored-1' };
      },
    };
    const validated = { request: { requestBody: form } } as OperationContext<ReportUploadForm>;
    const response = await uploadReport({ keyStore, reportStore, logger: quiet, hooks: {} }, validated, { operation: 'uploadReport' });
    expect(response.status).toBe(200);
    expect(textWhileSaving).toBe('');
    expect(saved!.size).toBe(report.length);
    expect(saved!.content.toString('latin1')).toBe(report.toString('latin1').replace(/^license_key=.*$/m, 'license_key=[redacted]'));
  });
});
