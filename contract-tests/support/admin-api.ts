import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import type { ServerProcess } from './server-process.js';

/** An answer of the admin API, read whole. */
export interface AdminAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** GETs an admin path from a server on HTTPS, trusting only the self-signed certificate in its data directory. */
export function adminGet(server: ServerProcess, token: string, path: string): Promise<AdminAnswer> {
  const ca = readFileSync(join(server.dataDir, 'tls-cert.pem'));
  return new Promise((resolve, reject) => {
    get(`${server.url}${path}`, { ca, headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, contentType: String(response.headers['content-type']), text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** GETs an admin path and parses its JSON answer, failing with the answer when the status is not 200. */
export async function adminJson<T>(server: ServerProcess, token: string, path: string): Promise<T> {
  const answer = await adminGet(server, token, path);
  if (answer.status !== 200 || !answer.contentType.startsWith('application/json')) {
    throw new Error(`GET ${path}: ${answer.status} ${answer.contentType}: ${answer.text.slice(0, 300)}`);
  }
  return JSON.parse(answer.text) as T;
}
