// `audit-server start` checks its mail settings (the SMTP server of scheduled digests) before it starts: a URL of
// another scheme, or one without a sender, stops it with a message naming the setting and never the password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeScript } from '@org/test-support/node-script';
import { CLI, makeDataDir } from './support/server-process.js';

const PASSWORD = 's3cret-smtp-passw0rd';

let dataDir: string;
let removeDataDir: () => Promise<void>;

beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
});
afterAll(() => removeDataDir?.());

/** `audit-server start --plain-http` with these environment variables (and no others of the test's). */
const start = (env: Record<string, string>, args: string[] = []) =>
  runNodeScript(CLI, ['start', '--plain-http', '--port', '0', '--ops-port', '0', ...args], { PATH: process.env.PATH!, DATA_DIR: dataDir, ...env });

describe('mail settings at start', () => {
  it('refuses an SMTP URL of another scheme', async () => {
    const result = await start({ SMTP_URL: `http://digest:${PASSWORD}@mail.example.org`, MAIL_FROM: 'audit@example.org' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('smtpUrl: must start with smtp:// or smtps://');
    expect(result.stderr).not.toContain(PASSWORD);
  });

  it('refuses an SMTP server without a sender, and a sender without an SMTP server', async () => {
    const withoutSender = await start({ SMTP_URL: `smtps://digest:${PASSWORD}@mail.example.org:465` });
    expect(withoutSender.code).toBe(1);
    expect(withoutSender.stderr).toContain('mailFrom: digest emails need a sender: give --mail-from (MAIL_FROM) with --smtp-url');
    expect(withoutSender.stderr).not.toContain(PASSWORD);
    const withoutServer = await start({}, ['--mail-from', 'Audit <audit@example.org>']);
    expect(withoutServer.code).toBe(1);
    expect(withoutServer.stderr).toContain('smtpUrl: a sender means something only with an SMTP server');
  });
});
