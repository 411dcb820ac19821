// The admin commands against a tiny local server that records what it got and answers what a test sets: what each
// command sends, what it prints, and what is refused before anything is sent. Shared by the commands' tests.
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { startStubServer, type StubServer } from '@org/test-support/stub-server';
import { addAdminCommands } from './admin-commands.js';

/** What the stub answers: a status and a body, JSON unless the content type says otherwise. */
export interface StubAnswer {
  status: number;
  body: string;
  contentType?: string;
}

/** The stub, its next answer, what the commands printed (stdout and stderr), and a way to run them. */
export interface AdminCliStub {
  stub: StubServer;
  reply: StubAnswer;
  printed: string;
  /** Runs `audit-client <args>` with the admin commands alone (and the global --url and --timeout they read). */
  run(...args: string[]): Promise<void>;
}

/** Sets up the stub for the calling test file, `token` as the admin token, answering `first()` before each test. */
export function useAdminCliStub(token: string, first: () => StubAnswer): AdminCliStub {
  const cli = {
    reply: first(),
    printed: '',
    async run(...args: string[]) {
      const program = new Command('audit-client').option('--url <url>').option('--timeout <seconds>', 'request timeout', Number, 30).exitOverride();
      program.configureOutput({ writeErr: () => {} });
      addAdminCommands(program);
      await program.parseAsync(['--url', cli.stub.url, ...args], { from: 'user' });
    },
  } as AdminCliStub;
  beforeAll(async () => {
    cli.stub = await startStubServer(() => ({
      status: cli.reply.status,
      body: cli.reply.body,
      headers: { 'content-type': cli.reply.contentType ?? 'application/json' },
    }));
  });
  afterAll(() => cli.stub.close());
  beforeEach(() => {
    cli.stub.requests.length = 0;
    cli.reply = first();
    cli.printed = '';
    vi.stubEnv('AUDIT_ADMIN_TOKEN', token);
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => ((cli.printed += String(text)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => ((cli.printed += String(text)), true));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    process.exitCode = undefined;
  });
  return cli;
}
