import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '@org/test-support/ports';

const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));
/** The contract. */
export const OPENAPI = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

/** A running Prism process. */
export interface PrismProcess {
  url: string;
  /** Everything Prism printed. */
  output: string[];
  stop(): Promise<void>;
}

/** Starts `prism <args> openapi.yaml [...]` on a free port and waits until it listens. */
export async function startPrism(command: 'mock' | 'proxy', extraArgs: string[] = []): Promise<PrismProcess> {
  // Prism cannot listen on port 0 and report the port.
  const port = await freePort();
  const child = spawn(PRISM, [command, '--host', '127.0.0.1', '--port', String(port), OPENAPI, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        if (line.includes('Prism is listening')) resolve();
      });
    }
    child.once('exit', (code) => reject(new Error(`prism ${command} exited with ${code}:\n${output.join('\n')}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
