// Uploads every Lynis report (*.dat) in a folder to an audit collector and prints "<stored id> <file>" for each.
//   AUDIT_URL=https://collector:8443/api/audit AUDIT_LICENSE_KEY=... [AUDIT_CA_FILE=server.pem] node examples/client-tooling/dist/upload-folder.js ./reports
// Each report is sent with the host ids written in it, so one folder may hold reports of many hosts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAuditClient, parseApiUrl, readReportHostIds, uploadBatch } from '@org/audit-client';

const [folder] = process.argv.slice(2);
const { AUDIT_URL, AUDIT_LICENSE_KEY, AUDIT_CA_FILE } = process.env;
if (!folder || !AUDIT_URL || !AUDIT_LICENSE_KEY) {
  console.error('Usage: AUDIT_URL=https://host:8443/api/audit AUDIT_LICENSE_KEY=... [AUDIT_CA_FILE=ca.pem] node upload-folder.js FOLDER');
  process.exit(1);
}

const client = createAuditClient({ ...parseApiUrl(AUDIT_URL), ...(AUDIT_CA_FILE ? { ca: await readFile(AUDIT_CA_FILE) } : {}) });
const files = (await readdir(folder))
  .filter((name) => name.endsWith('.dat'))
  .sort()
  .map((name) => join(folder, name));

const outcomes = await uploadBatch(
  files,
  async (file) => {
    const report = await readFile(file);
    const { hostId, hostId2 } = readReportHostIds(report);
    if (!hostId) throw new Error('the report has no hostid line');
    return client.uploadReport({ licenseKey: AUDIT_LICENSE_KEY, hostId, ...(hostId2 ? { hostId2 } : {}), report });
  },
  { concurrency: 4, retries: 3, maxRetryWaitSeconds: 60 },
);
await client.close();

for (const outcome of outcomes) {
  if (outcome.status === 'stored') console.log(`${outcome.id} ${outcome.item}`);
  else console.error(`${outcome.item}: ${outcome.status === 'failed' ? outcome.error.message : 'not sent, the key was refused'}`);
}
process.exitCode = outcomes.every((outcome) => outcome.status === 'stored') ? 0 : 1;
