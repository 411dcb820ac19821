// Sending mail through the SMTP server of `--smtp-url` (nodemailer). The URL may carry credentials: they reach the
// transport and nothing else, and are cut out of any error text the transport gives.
import nodemailer from 'nodemailer';
import type { MailSettings } from './mail-settings.js';

/** One email to send. */
export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Sends one email; rejects with an error whose message holds no credentials. */
export type SendMail = (mail: OutgoingMail) => Promise<void>;

/** Longest waits for the SMTP server: to connect, to greet, and between any two of its answers. */
const TIMEOUT_MS = 30_000;

/** A sender through the settings' SMTP server. */
export function smtpSender(settings: MailSettings): SendMail {
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  const secrets = credentialsOf(settings.smtpUrl);
  return async (mail) => {
    try {
      await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    } catch (error) {
      // eslint-disable-next-line preserve-caught-error -- the transport's error is not passed on: only its text, the credentials cut out
      throw new Error(withoutSecrets(error instanceof Error ? error.message : String(error), secrets));
    }
  };
}

/** The URL's user name and password, as written and decoded, to cut out of error texts. */
function credentialsOf(smtpUrl: string): string[] {
  const url = new URL(smtpUrl);
  return [url.password, url.username]
    .filter((part) => part !== '')
    .flatMap((part) => [part, decodeURIComponent(part)])
    .filter((part) => part.length >= 3);
}

function withoutSecrets(text: string, secrets: string[]): string {
  return secrets.reduce((clean, secret) => clean.split(secret).join('***'), text);
}
