import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('../../dist/ops/logger.js', import.meta.url));

/** Runs `body` in a new Node process with `createLogger` from the build in scope, and collects its stdout. */
function runWithLogger(body: string): Promise<{ code: number | null; stdout: string }> {
  const script = `import { createLogger } from ${JSON.stringify(LOGGER)};\n${body}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

it('writes every line, those still buffered too, when the process exits at once after logging', async () => {
  const { code, stdout } = await runWithLogger(`
    const logger = createLogger('info');
    for (let i = 0; i < 5000; i++) logger.info({ i }, 'line');
    process.exit(3);
  `);
  expect(code).toBe(3);
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines).toHaveLength(5000);
  expect(lines.at(-1)).toMatchObject({ i: 4999, msg: 'line' });
});

it('redacts keys and tokens by name, nested too', async () => {
  const { stdout } = await runWithLogger(`
    createLogger('info').info({ licensekey: 'aaaa-1111', req: { token: 'secret-token', headers: { authorization: 'Bearer x' } } }, 'careless');
  `);
  expect(stdout).not.toMatch(/aaaa-1111|secret-token|Bearer/);
  expect(JSON.parse(stdout)).toMatchObject({ licensekey: '[redacted]', req: { token: '[redacted]', headers: { authorization: '[redacted]' } } });
});

it('writes lines for people when asked (as on a terminal), still redacting, and JSON otherwise', async () => {
  const { stdout } = await runWithLogger(`
    createLogger('info', { pretty: true }).info({ keyId: 'k-1', licensekey: 'aaaa-1111' }, 'report stored');
  `);
  expect(stdout).toMatch(/INFO.*report stored/);
  expect(stdout).toContain('keyId: "k-1"');
  expect(stdout).not.toContain('aaaa-1111');
  expect(() => JSON.parse(stdout)).toThrow();
  const plain = await runWithLogger(`createLogger('info', { pretty: false }).info({ keyId: 'k-1' }, 'report stored');`);
  expect(JSON.parse(plain.stdout)).toMatchObject({ keyId: 'k-1', msg: 'report stored' });
});
