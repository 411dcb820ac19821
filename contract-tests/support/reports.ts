import { openDatabase, ReportRecord, reportBytesOf, type DatabaseLocation } from '@org/audit-server';

/** What the reference server stored, read straight from its database (the report as stored: decompressed and checked). */
export async function storedReports(location: string | DatabaseLocation) {
  const orm = await openDatabase(location);
  try {
    const reports = await orm.em.fork().find(ReportRecord, {}, { orderBy: { receivedAt: 'asc' } });
    return Promise.all(
      reports.map(async (r) => ({
        id: r.id,
        keyId: r.key.id,
        hostId: r.hostId,
        hostId2: r.hostId2,
        encoding: r.encoding,
        size: r.size,
        sha256: r.sha256,
        content: await reportBytesOf(r),
        hostname: r.hostname,
        lynisVersion: r.lynisVersion,
        hardeningIndex: r.hardeningIndex,
        warningCount: r.warningCount,
        suggestionCount: r.suggestionCount,
      })),
    );
  } finally {
    await orm.close();
  }
}
