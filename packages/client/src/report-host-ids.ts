/** The host ids a Lynis report names on its own `hostid=` and `hostid2=` lines. */
export interface ReportHostIds {
  hostId?: string;
  hostId2?: string;
}

/** Reads `hostid=` and `hostid2=` from a Lynis report (Lynis writes both into every report); the last line wins. */
export function readReportHostIds(report: Buffer | string): ReportHostIds {
  const ids: ReportHostIds = {};
  for (const match of report.toString().matchAll(/^(hostid2?)=([^\r\n]*)$/gm)) {
    if (match[2] === '') continue;
    if (match[1] === 'hostid') ids.hostId = match[2];
    else ids.hostId2 = match[2];
  }
  return ids;
}
