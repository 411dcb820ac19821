// `audit-client export finding-states` against a tiny local server that records what it got.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAdminCliStub } from './admin-cli.test-kit.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const CSV = 'id,hostRecordId,hostname\r\nf1,h1,web-01\r\n';

const cli = useAdminCliStub(TOKEN, () => ({ status: 200, body: CSV, contentType: 'text/csv; charset=utf-8' }));
const { run } = cli;

const urls = () => cli.stub.requests.map((request) => request.url);

describe('export finding-states', () => {
  it('sends every filter and the format, and prints the export as it came', async () => {
    await run('export', 'finding-states', '--state', 'open,regressed', '--group', 'web', '--kind', 'warning', '--test-id', 'SSH-7408', '--format', 'jsonl');
    expect(urls()).toEqual(['/api/admin/exports/finding-states?state=open,regressed&group=web&kind=warning&testId=SSH-7408&format=jsonl']);
    expect(cli.printed).toBe(CSV);
  });

  it('writes the export to a file with -o, CSV by default', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'finding-states-'));
    try {
      await run('export', 'finding-states', '-o', join(directory, 'findings.csv'));
      expect(urls()).toEqual(['/api/admin/exports/finding-states?format=csv']);
      expect(await readFile(join(directory, 'findings.csv'), 'utf8')).toBe(CSV);
      expect(cli.printed).toBe('');
    } finally {
      await rm(directory, { recursive: true });
    }
  });

  it("keeps the host export's own --state and --format", async () => {
    await run('export', 'hosts', '--state', 'all', '--format', 'json');
    expect(urls()).toEqual(['/api/admin/exports/hosts?state=all&format=json']);
  });

  it('refuses what the export does not take before sending anything', async () => {
    await expect(run('export', 'finding-states', '--state', 'closed')).rejects.toThrow(/--state must be states separated by commas/);
    await expect(run('export', 'finding-states', '--format', 'json')).rejects.toThrow('export finding-states writes csv or jsonl');
    await expect(run('export', 'finding-states', '--hostname', 'web')).rejects.toThrow(/not the host filters/);
    await expect(run('export', 'hosts', '--state', 'open')).rejects.toThrow(/--state of hosts must be one of current, active/);
    await expect(run('export', 'hosts', '--format', 'jsonl')).rejects.toThrow(/jsonl is the format of export finding-states/);
    await expect(run('export', 'findings', '--kind', 'warning')).rejects.toThrow(/--kind and --test-id filter export finding-states/);
    expect(urls()).toEqual([]);
  });
});
