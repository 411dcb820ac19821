import { openDatabase, ReportRecord } from '@org/audit-server';

/** What the reference server stored, read straight from its database. */
export async function storedReports(dataDir: string) {
  const orm = await openDatabase(dataDir);
  try {
    const reports = await orm.em.fork().find(ReportRecord, {}, { orderBy: { receivedAt: 'asc' } });
    return reports.map((r) => ({
      id: r.id, keyId: r.key.id, hostId: r.hostId, hostId2: r.hostId2, encoding: r.encoding, size: r.size, sha256: r.sha256,
      content: Buffer.from(r.content),
    }));
  } finally {
    await orm.close();
  }
}
