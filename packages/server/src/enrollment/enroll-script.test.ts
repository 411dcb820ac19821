import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderEnrollScript, type EnrollScriptSettings } from './enroll-script.js';

const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

const settings = (overrides: Partial<EnrollScriptSettings> = {}): EnrollScriptSettings => ({
  intake: { scheme: 'https', host: 'collector.example.org', port: 8443, certificate: CERTIFICATE },
  auditPrefix: 'api/audit',
  licenseKeyAlias: '0123abcd-4567ef01',
  systemGroups: ['web', 'db'],
  tags: ['prod'],
  customer: 'acme corp',
  dashboardUrl: 'https://collector.example.org:8443/dashboard/',
  ...overrides,
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'enroll-script-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes the script and runs `command` in sh after sourcing it (functions only), with `path` first on PATH. */
async function sourced(command: string, options: { script?: string; path?: string } = {}) {
  const file = join(dir, 'enroll.sh');
  await writeFile(file, options.script ?? renderEnrollScript(settings()));
  const result = spawnSync('/bin/sh', ['-c', `. "$1"; ${command}`, 'sh', file], {
    encoding: 'utf8',
    env: { PATH: options.path ?? process.env.PATH, ENROLL_SCRIPT_FUNCTIONS_ONLY: '1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A directory of fake commands, each recording its arguments in `calls` (and `lynis`' install making a fake lynis). */
async function stubs(names: string[]): Promise<string> {
  const bin = join(dir, 'bin');
  spawnSync('mkdir', ['-p', bin]);
  for (const name of names) {
    const fakeLynis = `printf '#!/bin/sh\\necho 3.0.8\\n' > "${bin}/lynis"; chmod +x "${bin}/lynis"`;
    await writeFile(join(bin, name), `#!/bin/sh\necho "${name} $*" >> "${dir}/calls"\ncase "$*" in *lynis*) ${fakeLynis} ;; esac\n`);
    await chmod(join(bin, name), 0o755);
  }
  return bin;
}

describe('the enroll script', () => {
  it('passes shellcheck as POSIX sh', () => {
    const check = spawnSync('shellcheck', ['--shell=sh', '--severity=style', '-'], { input: renderEnrollScript(settings()), encoding: 'utf8' });
    if (check.error) throw new Error('shellcheck is not installed: run `apt-get install -y shellcheck` (.ci/run does)');
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('keeps every value text: quotes, $(…) and newlines in them are never run', async () => {
    const hostile = `x'; touch ${dir}/pwned; echo '$(touch ${dir}/pwned2)\n\`touch ${dir}/pwned3\``;
    const script = renderEnrollScript(settings({ customer: hostile, systemGroups: [hostile], tags: [] }));
    const run = await sourced('printf "%s|%s|%s" "$CUSTOMER" "$SYSTEM_GROUPS" "$TAGS"', { script });
    expect(run.stdout).toBe(`${hostile}|${hostile}|`);
    expect(existsSync(join(dir, 'pwned')) || existsSync(join(dir, 'pwned2')) || existsSync(join(dir, 'pwned3'))).toBe(false);
  });

  it('writes the managed block with only the labels given, and the certificate option only over HTTPS', async () => {
    const block = await sourced('managed_block');
    expect(block.stdout).toBe(
      [
        '# BEGIN audit-collector enrollment',
        "# Written by the audit collector's enroll script; run it with --uninstall to remove this block.",
        'upload=yes',
        'upload-server=collector.example.org:8443/api/audit',
        'license-key=0123abcd-4567ef01',
        'upload-options=--cacert /etc/lynis/audit-collector.pem',
        'system-groups=web,db',
        'tags=prod',
        'system-customer-name=acme corp',
        '# END audit-collector enrollment',
        '',
      ].join('\n'),
    );
    const plain = renderEnrollScript(settings({ intake: { scheme: 'http', host: '127.0.0.1', port: 8080 }, systemGroups: [], tags: [], customer: null }));
    const bare = await sourced('managed_block', { script: plain });
    expect(bare.stdout).not.toMatch(/upload-options|system-groups|tags=|system-customer-name/);
    expect(bare.stdout).toContain('upload-server=127.0.0.1:8080/api/audit');
  });

  it('replaces an existing managed block and keeps the rest of the profile', async () => {
    const profile = join(dir, 'custom.prf');
    await writeFile(profile, 'skip-test=ABC-1234\n# BEGIN audit-collector enrollment\nlicense-key=old\n# END audit-collector enrollment\nquick=yes\n');
    const run = await sourced(`PROFILE="${profile}"; { profile_without_block; managed_block; } | write_if_changed "$PROFILE" 640`);
    expect(run.status).toBe(0);
    const text = await readFile(profile, 'utf8');
    expect(text.startsWith('skip-test=ABC-1234\nquick=yes\n# BEGIN audit-collector enrollment\n')).toBe(true);
    expect(text).not.toContain('license-key=old');
    expect(text.match(/# BEGIN/g)).toHaveLength(1);
    const again = await sourced(`PROFILE="${profile}"; { profile_without_block; managed_block; } | write_if_changed "$PROFILE" 640`);
    expect(again.status).toBe(1); // unchanged: not written
  });

  it.each([
    [['dnf', 'zypper'], 'dnf'],
    [['yum', 'zypper'], 'yum'],
    [['apt-get', 'dnf', 'yum'], 'apt-get'],
    [['zypper'], 'zypper'],
  ])('chooses the first package manager of apt-get, dnf, yum, zypper: of %j, %s', async (present, chosen) => {
    const bin = await stubs(present);
    expect((await sourced('package_manager', { path: bin })).stdout).toBe(`${chosen}\n`);
  });

  it('installs Lynis with the package manager found when it is missing', async () => {
    const bin = await stubs(['dnf', 'zypper']);
    const run = await sourced('install_lynis && lynis', { path: bin });
    expect(run.stdout).toContain('Installing Lynis with dnf');
    expect(await readFile(join(dir, 'calls'), 'utf8')).toBe('dnf install -y lynis\n');
  });

  it('stops with a clear message when Lynis is missing and no package manager is found', async () => {
    const bin = await stubs([]);
    const run = await sourced('install_lynis', { path: bin });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('enroll: Lynis is not installed and no apt-get, dnf, yum or zypper was found: install Lynis, then run this again\n');
  });

  it('asks for root, prints its help to anyone, and refuses an unknown option', async () => {
    const file = join(dir, 'enroll.sh');
    await writeFile(file, renderEnrollScript(settings()));
    const bin = await stubs([]);
    await writeFile(join(bin, 'id'), '#!/bin/sh\necho 1000\n');
    await chmod(join(bin, 'id'), 0o755);
    const run = (...args: string[]) => spawnSync('/bin/sh', [file, ...args], { encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH}` } });
    const asUser = run('--no-run');
    expect(asUser.status).toBe(1);
    expect(asUser.stderr).toBe('enroll: run this as root: curl ... | sudo sh\n');
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--uninstall');
    expect(run('--frobnicate').stderr).toBe('enroll: unknown option --frobnicate (see --help)\n');
  });
});
