// The `hosts` commands against a tiny local server that records what it got: what each sends, and what is refused
// before anything is sent.
import { describe, expect, it } from 'vitest';
import { useAdminCliStub } from './admin-cli.test-kit.js';
import { stateChangesText } from './host-lifecycle-commands.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER = '1f8fad5b-d9cb-469f-a165-70867728950e';
const HOST = { id: ID, hostname: 'web-01', state: 'decommissioned', stateSince: '2026-11-20T08:00:00.000Z', stateReason: 'operator' };

const cli = useAdminCliStub(TOKEN, () => ({ status: 200, body: JSON.stringify(HOST) }));
const { run } = cli;

/** What the stub got: method, path with query, and body. */
const received = () => cli.stub.requests.map((request) => ({ method: request.method, url: request.url, body: request.body.toString() }));

describe('hosts commands', () => {
  it('list with `hosts` alone as before, or `hosts list`, passing --state', async () => {
    cli.reply = { status: 200, body: JSON.stringify({ items: [], total: 0, limit: 50, offset: 0 }) };
    await run('hosts', '--group', 'web', '--state', 'decommissioned');
    await run('hosts', 'list', '--state', 'all', '--json');
    expect(received().map((request) => request.url)).toEqual(['/api/admin/hosts?group=web&state=decommissioned', '/api/admin/hosts?state=all']);
    expect(cli.printed).toContain('No hosts.\n');
  });

  it('decommission and reactivate a host, saying its state, since when and why', async () => {
    await run('hosts', 'decommission', ID);
    await run('hosts', 'reactivate', ID, '--json');
    expect(received().map(({ method, url }) => `${method} ${url}`)).toEqual([
      `POST /api/admin/hosts/${ID}/decommission`,
      `POST /api/admin/hosts/${ID}/reactivate`,
    ]);
    expect(cli.printed).toContain(`Host web-01 (${ID}) is decommissioned since 2026-11-20 08:00:00 UTC (by an operator).\n`);
    expect(JSON.parse(cli.printed.slice(cli.printed.indexOf('{')))).toEqual(HOST);
  });

  it('delete a host only with --yes', async () => {
    await expect(run('hosts', 'delete', ID)).rejects.toThrow(`this deletes host ${ID} and all its reports for good; add --yes to do it`);
    expect(received()).toEqual([]);
    cli.reply = { status: 204, body: '' };
    await run('hosts', 'delete', ID, '--yes');
    expect(received()).toEqual([{ method: 'DELETE', url: `/api/admin/hosts/${ID}`, body: '' }]);
    expect(cli.printed).toBe(`Deleted host ${ID}\n`);
  });

  it('change the state of hosts selected by ids or by the filters, saying how many of them changed', async () => {
    cli.reply = { status: 200, body: JSON.stringify({ changed: 1, hosts: 2 }) };
    await run('hosts', 'bulk-state', 'decommission', '--ids', `${ID},${OTHER}`);
    await run('hosts', 'bulk-state', 'reactivate', '--group', 'web', '--state', 'decommissioned');
    expect(received().map((request) => JSON.parse(request.body) as unknown)).toEqual([
      { action: 'decommission', hosts: { ids: [ID, OTHER] } },
      { action: 'reactivate', hosts: { filters: { group: 'web', state: 'decommissioned' } } },
    ]);
    expect(cli.printed).toBe(
      '1 of 2 hosts decommissioned; the others were decommissioned already\n1 of 2 hosts reactivated; the others were not decommissioned\n',
    );
  });

  it('refuse a bulk change without a selection, with both kinds, or with another action, sending nothing', async () => {
    await expect(run('hosts', 'bulk-state', 'decommission')).rejects.toThrow(/select hosts with --ids or with filters/);
    await expect(run('hosts', 'bulk-state', 'decommission', '--ids', ID, '--group', 'web')).rejects.toThrow('give either --ids or filters, not both');
    await expect(run('hosts', 'bulk-state', 'delete', '--ids', ID)).rejects.toThrow(/Allowed choices are decommission, reactivate/);
    await expect(run('hosts', 'merge', ID, ID)).rejects.toThrow('give two different hosts');
    expect(received()).toEqual([]);
  });

  it('merge another host into one', async () => {
    await run('hosts', 'merge', ID, OTHER);
    expect(received()).toEqual([{ method: 'POST', url: `/api/admin/hosts/${ID}/merge`, body: JSON.stringify({ hostRecordId: OTHER }) }]);
    expect(cli.printed).toBe(`Merged host ${OTHER} into web-01 (${ID}).\n`);
  });

  it('word a bulk change: how many of how many, and why the others did not change', () => {
    expect(stateChangesText('decommission', 3, 3)).toBe('3 of 3 hosts decommissioned');
    expect(stateChangesText('reactivate', 1, 1)).toBe('1 of 1 host reactivated');
  });
});
