// `audit-client controls list|import` against a tiny local server that records what it got.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAdminCliStub } from './admin-cli.test-kit.js';
import type { ControlReport } from './generated/types.gen.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const MAPPING = 'framework,control_id,title,test_ids,rule_ids\nEXAMPLE,EX-1,Updates installed,PKGS-7392,no-vulnerable-packages\n';

const REPORT: ControlReport = {
  frameworks: [
    { name: 'EXAMPLE', controls: 2 },
    { name: 'OTHER', controls: 1 },
  ],
  framework: 'EXAMPLE',
  controls: [
    {
      framework: 'EXAMPLE',
      controlId: 'EX-1',
      title: 'Updates installed',
      testIds: ['PKGS-7392'],
      ruleIds: ['no-vulnerable-packages'],
      sources: ['file'],
      hosts: { passing: 3, failing: 2, unknown: 1 },
      evidence: { rules: [], findings: [] },
      failingHosts: [
        { hostRecordId: '7d1f0b3a-2c4e-4b6f-8a9d-1e2f3a4b5c6d', hostname: 'web-01\u001b[31m', because: ['PKGS-7392'] },
        { hostRecordId: '0b9e5c1e-4a9f-4f53-9d0c-3f6a1d2b7c11', hostname: null, because: ['Baseline/no-vulnerable-packages'] },
      ],
    },
    {
      framework: 'EXAMPLE',
      controlId: 'EX-2',
      title: null,
      testIds: [],
      ruleIds: ['Baseline/firewall-active'],
      sources: ['policy'],
      hosts: { passing: 6, failing: 0, unknown: 0 },
      evidence: { rules: [], findings: [] },
      failingHosts: [],
    },
  ],
};

const cli = useAdminCliStub(TOKEN, () => ({ status: 200, body: JSON.stringify(REPORT) }));
const { run } = cli;

describe('controls', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'controls-'));
    await writeFile(join(folder, 'mapping.csv'), MAPPING);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("lists a framework's controls with their hosts, a host's control characters not written to the terminal", async () => {
    await run('controls', 'list', '--framework', 'example');
    expect(cli.stub.requests.map((request) => request.url)).toEqual(['/api/admin/controls?framework=example']);
    expect(cli.printed).toBe(
      [
        'CONTROL  PASSING  FAILING  UNKNOWN  FAILING HOSTS                                     TITLE',
        'EX-1     3        2        1        web-01?[31m 0b9e5c1e-4a9f-4f53-9d0c-3f6a1d2b7c11  Updates installed',
        'EX-2     6        0        0        -                                                 -',
        '',
      ].join('\n'),
    );
  });

  it('lists the frameworks without --framework, and says when the one named is unknown', async () => {
    cli.reply = { status: 200, body: JSON.stringify({ ...REPORT, framework: null, controls: [] }) };
    await run('controls', 'list');
    expect(cli.stub.requests.map((request) => request.url)).toEqual(['/api/admin/controls']);
    expect(cli.printed).toBe('FRAMEWORK  CONTROLS\nEXAMPLE    2\nOTHER      1\n');
    cli.printed = '';
    await run('controls', 'list', '--framework', 'CIS');
    expect(cli.printed).toBe('No framework named CIS; known: EXAMPLE, OTHER\n');
    expect(process.exitCode).toBe(5);
  });

  it('sends the mapping file as text/csv and says what it replaced', async () => {
    cli.reply = { status: 200, body: JSON.stringify({ frameworks: ['EXAMPLE'], controls: 1 }) };
    await run('controls', 'import', join(folder, 'mapping.csv'));
    const [request] = cli.stub.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/api/admin/controls/import' });
    expect(request!.body.toString()).toBe(MAPPING);
    expect(request!.headers['content-type']).toBe('text/csv');
    expect(cli.printed).toBe('Imported 1 control of EXAMPLE\n');
  });

  it("shows the server's bad lines and exits non-zero; a file it cannot read is refused before sending", async () => {
    cli.reply = {
      status: 400,
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: 'The mapping file has bad lines: line 3: the framework must be …',
      }),
    };
    await run('controls', 'import', join(folder, 'mapping.csv'));
    expect(cli.printed).toContain('line 3: the framework must be');
    expect(process.exitCode).toBe(3);
    cli.stub.requests.length = 0;
    await expect(run('controls', 'import', join(folder, 'missing.csv'))).rejects.toThrow(/Cannot read the mapping file .*missing\.csv: ENOENT/);
    expect(cli.stub.requests).toEqual([]);
  });
});
