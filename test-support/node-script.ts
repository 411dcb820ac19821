import { spawn } from 'node:child_process';

/** What a finished command printed, and its exit code. */
export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node script to completion with `env` as its whole environment and `stdin` as its input. */
export function runNodeScript(script: string, args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env });
    child.stdin.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
