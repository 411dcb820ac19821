// `audit-client export finding-states` against a tiny local server that records what it got.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStubServer, type StubServer } from '@org/test-support/stub-server';
import { addAdminCommands } from './admin-commands.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const CSV = 'id,hostRecordId,hostname\r\nf1,h1,web-01\r\n';

let stub: StubServer;
let printed: string;

beforeAll(async () => {
  stub = await startStubServer(() => ({ status: 200, body: CSV, headers: { 'content-type': 'text/csv; charset=utf-8' } }));
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
  printed = '';
  vi.stubEnv('AUDIT_ADMIN_TOKEN', TOKEN);
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => ((printed += String(text)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => ((printed += String(text)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
});

async function run(...args: string[]): Promise<void> {
  const program = new Command('audit-client').option('--url <url>').option('--timeout <seconds>', 'request timeout', Number, 30).exitOverride();
  program.configureOutput({ writeErr: () => {} });
  addAdminCommands(program);
  await program.parseAsync(['--url', stub.url, ...args], { from: 'user' });
}

const urls = () => stub.requests.map((request) => request.url);

describe('export finding-states', () => {
  it('sends every filter and the format, and prints the export as it came', async () => {
    await run('export', 'finding-states', '--state', 'open,regressed', '--group', 'web', '--kind', 'warning', '--test-id', 'SSH-7408', '--format', 'jsonl');
    expect(urls()).toEqual(['/api/admin/exports/finding-states?state=open,regressed&group=web&kind=warning&testId=SSH-7408&format=jsonl']);
    expect(printed).toBe(CSV);
  });

  it('writes the export to a file with -o, CSV by default', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'finding-states-'));
    try {
      await run('export', 'finding-states', '-o', join(directory, 'findings.csv'));
      expect(urls()).toEqual(['/api/admin/exports/finding-states?format=csv']);
      expect(await readFile(join(directory, 'findings.csv'), 'utf8')).toBe(CSV);
      expect(printed).toBe('');
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
