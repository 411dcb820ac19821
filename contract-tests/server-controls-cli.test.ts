// `audit-server controls` on each database, the built CLI on a fresh install: the example mapping file imported and
// listed, a bad file refused naming its lines (nothing imported), and a framework nobody mapped refused.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, DIALECTS } from '@org/test-support/postgres';
import { makeDataDir, runCli } from './support/server-process.js';

const EXAMPLE_FILE = fileURLToPath(new URL('../examples/controls/example-mapping.csv', import.meta.url));

describe.each(DIALECTS)(
  'audit-server controls on %s',
  (dialect) => {
    let dataDir: { dataDir: string; remove: () => Promise<void> };
    let scratch: { url: string; drop: () => Promise<void> } | undefined;
    const controls = (args: string[], stdin?: string) => runCli(['controls', ...args], dataDir.dataDir, stdin, scratch?.url);

    // Made once, awaited by every test, so that without PostgreSQL every test fails with the reason.
    let started: Promise<void> | undefined;
    beforeEach(() => (started ??= start()));
    async function start(): Promise<void> {
      dataDir = await makeDataDir();
      if (dialect === 'postgresql') scratch = await createScratchDatabase();
    }
    afterAll(async () => {
      await scratch?.drop();
      await dataDir?.remove();
    });

    it('refuses a bad file naming each bad line, and imports nothing', async () => {
      await started;
      const bad = 'framework,control_id,title,test_ids,rule_ids\nEXAMPLE,1,Fine,PKGS-7392,\nEX AMPLE,2,Bad,,\nEXAMPLE,3,Bad rule,,Firewall\n';
      const refused = await controls(['import', '-'], bad);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^audit-server: The mapping file has bad lines: line 3: the framework must be .*; line 4: not a rule id .*"Firewall"\n$/);
      expect(await controls(['list'])).toMatchObject({ code: 0, stdout: 'FRAMEWORK  CONTROLS\n' });
    });

    it('imports the example file and lists its framework and controls', async () => {
      await started;
      expect(await controls(['import', EXAMPLE_FILE])).toMatchObject({ code: 0, stderr: 'Imported 5 controls of EXAMPLE\n' });
      expect(await controls(['list'])).toMatchObject({ code: 0, stdout: 'FRAMEWORK  CONTROLS\nEXAMPLE    5\n' });
      const listed = await controls(['list', '--framework', 'example']);
      expect(listed.code).toBe(0);
      const [heading, first, ...rest] = listed.stdout.trimEnd().split('\n');
      expect(heading!.split(/\s{2,}/)).toEqual(['CONTROL', 'PASSING', 'FAILING', 'UNKNOWN', 'TESTS', 'RULES', 'TITLE']);
      // No hosts yet: every figure is 0.
      expect(first!.split(/\s{2,}/)).toEqual(['EX-1', '0', '0', '0', 'PKGS-7392', 'no-vulnerable-packages', 'Example only: security updates are installed']);
      expect(rest.map((line) => line.split(/\s{2,}/)[0])).toEqual(['EX-2', 'EX-3', 'EX-4', 'EX-5']);
      expect(await controls(['list', '--framework', 'CIS'])).toMatchObject({ code: 1, stderr: 'audit-server: no framework named "CIS"\n' });
    });
  },
  120_000,
);
