import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportStore, ReportToStore } from '@org/audit-server-core';

/**
 * A {@link ReportStore} writing each report to a folder: `<id>.dat` (the redacted report) and `<id>.json`
 * (key id, host ids, time, encoding, size, SHA-256 and the Lynis summary, or null). A report exists once its `.json` does; `save` resolves only
 * after both files and the folder entry are on disk, so the 200 the client gets means the report survives a crash.
 */
export class FolderReportStore implements ReportStore {
  constructor(readonly folder: string) {}

  async save(report: ReportToStore): Promise<{ id: string }> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const id = randomUUID();
    const { content, ...metadata } = report;
    const dat = join(this.folder, `${id}.dat`);
    const json = join(this.folder, `${id}.json`);
    const [datTemp, jsonTemp] = [dat, json].map((path) => `${path}.${randomUUID()}.tmp`) as [string, string];
    try {
      // Both files are written and synced under temporary names first, so a crash leaves no half-written report.
      await writeSynced(datTemp, content);
      await writeSynced(jsonTemp, JSON.stringify({ id, ...metadata }, null, 2));
      await rename(datTemp, dat);
      await rename(jsonTemp, json); // last: this makes the report visible
      await syncFolder(this.folder);
    } catch (error) {
      // Not known to be durable, so not stored: the client gets a 500 and nothing half-done stays behind.
      await Promise.all([datTemp, jsonTemp, dat, json].map((path) => rm(path, { force: true })));
      throw error;
    }
    return { id };
  }
}

/** Writes `data` to a new file and syncs it to disk. */
async function writeSynced(path: string, data: string | Buffer): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Syncs a folder, so that the renames into it are durable too. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
