// An SMTP server in the test's own process (smtp-server on 127.0.0.1, a free port) that keeps what it receives, or
// refuses every message; and a reader of the received messages' subject and parts.
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  received: ReceivedMail[];
  /** While true, every message is refused with 550. */
  refusing: boolean;
  close(): Promise<void>;
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const state: TestSmtpServer = { url: '', received: [], refusing: false, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: the sender would otherwise upgrade to TLS with a certificate it cannot check.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      void text(stream).then((raw) => {
        if (state.refusing) return callback(Object.assign(new Error('mailbox unavailable (test server refuses)'), { responseCode: 550 }));
        state.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** A received message's subject and its text and HTML parts, decoded (quoted-printable or base64, UTF-8). */
export function readMail(raw: string): { subject: string; text: string; html: string } {
  const [head = ''] = raw.split(/\r?\n\r?\n/);
  const subject = decodeWords(/^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(head)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '');
  return { subject, text: part(raw, 'text/plain'), html: part(raw, 'text/html') };
}

function part(raw: string, type: string): string {
  const start = raw.search(new RegExp(`^Content-Type: ${type}`, 'im'));
  if (start < 0) return '';
  const rest = raw.slice(start);
  const [headers = '', ...body] = rest.split(/\r?\n\r?\n/);
  const content = body.join('\n\n').split(/\r?\n--/)[0] ?? '';
  const encoding = /^Content-Transfer-Encoding: (\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(content.replace(/\s/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintable(content);
  return content;
}

function quotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = /^=([0-9A-F]{2})/i.exec(joined.slice(i, i + 3));
    if (hex) {
      bytes.push(parseInt(hex[1]!, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
}

/** Encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) decoded, the space between two of them dropped. */
function decodeWords(header: string): string {
  return header
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_match, kind: string, body: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(body, 'base64').toString('utf8') : quotedPrintable(body.replace(/_/g, ' ')),
    );
}
