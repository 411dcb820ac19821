// A digest's email: subject, plain text and a simple HTML part, every figure from the frozen content. Host-supplied
// text (host names, findings' text, group and customer names) is escaped in the HTML part.
import type { CompliancePoint, DigestContent, DigestExpiringWaiver, DigestFinding } from '../generated/types.gen.js';
import { scopeLabel } from './digest-records.js';
import type { Digest } from '../generated/types.gen.js';

/** An email ready for the transport. */
export interface DigestMail {
  subject: string;
  text: string;
  html: string;
}

/** The parts of a digest the email shows. */
export type MailedDigest = Pick<Digest, 'scope' | 'cadence' | 'periodStart' | 'periodEnd' | 'link'> & { content: DigestContent };

const CADENCE_TITLE = { weekly: 'Weekly digest', monthly: 'Monthly digest' } as const;

/** A percentage as the digest shows it: one decimal, or `n/a` when no host's status is known. */
export const percentText = (percent: number | null): string => (percent === null ? 'n/a' : `${percent.toFixed(1)}%`);

/** A change in points with its sign: `+2.1`, `-0.4`, `±0.0`. */
export const changeText = (points: number): string => (points > 0 ? `+${points.toFixed(1)}` : points < 0 ? points.toFixed(1) : '±0.0');

/** `Weekly digest — group webservers — 95.8% compliant (+2.1)`. */
export function digestSubject(digest: MailedDigest): string {
  const { now, changePoints } = digest.content.compliance;
  const change = changePoints === null ? '' : ` (${changeText(changePoints)})`;
  // Control characters in a group's name must not break the header.
  return `${CADENCE_TITLE[digest.cadence]} — ${scopeLabel(digest.scope)} — ${percentText(now.compliancePercent)} compliant${change}`.replace(/[\r\n\t]/g, ' ');
}

const day = (iso: string) => iso.slice(0, 10);

/** The period as days: its end is exclusive, so its last day is the one before. */
function periodText(digest: MailedDigest): string {
  const lastDay = new Date(Date.parse(digest.periodEnd) - 1).toISOString();
  return `${day(digest.periodStart)} to ${day(lastDay)}`;
}

const hostsText = (point: CompliancePoint) =>
  `${point.hosts.compliant} compliant, ${point.hosts.noncompliant} non-compliant, ${point.hosts.accepted} accepted, ${point.hosts.unknown} unknown`;

const findingLine = (finding: DigestFinding) => `${finding.hostname ?? finding.hostRecordId}: ${finding.kind} ${finding.testId} ${finding.text}`;
const waiverLine = (waiver: DigestExpiringWaiver) => `${waiver.policyName}${waiver.ruleId ? ` / ${waiver.ruleId}` : ''} for ${waiver.target}`;

/** The digest's sections, each a title and its lines (each line a text and a date), as both parts show them. */
function sections(content: DigestContent): { title: string; lines: { text: string; at: string }[] }[] {
  const findings = (list: DigestFinding[]) => list.map((finding) => ({ text: findingLine(finding), at: day(finding.at) }));
  return [
    { title: 'Top regressions (date seen again)', lines: findings(content.topRegressions) },
    { title: 'Oldest open findings (first seen)', lines: findings(content.oldestOpen) },
    { title: 'Accepted risks expiring within 14 days', lines: findings(content.expiringAcceptances) },
    { title: 'Waivers expiring within 14 days', lines: content.expiringWaivers.map((waiver) => ({ text: waiverLine(waiver), at: day(waiver.expiresAt) })) },
  ];
}

/** The summary lines: compliance now, before and the change, and open findings. */
function summary(content: DigestContent): string[] {
  const { now, before, changePoints } = content.compliance;
  return [
    `Compliance now: ${percentText(now.compliancePercent)} (${hostsText(now)})`,
    before
      ? `At the period's start: ${percentText(before.compliancePercent)}; change ${changePoints === null ? 'n/a' : `${changeText(changePoints)} points`}`
      : "At the period's start: no figures reach back that far",
    `Open findings: ${now.openFindings.warning} warnings, ${now.openFindings.suggestion} suggestions, ${now.openFindings.accepted} accepted`,
  ];
}

export function digestMail(digest: MailedDigest): DigestMail {
  const subject = digestSubject(digest);
  const heading = `${CADENCE_TITLE[digest.cadence]} of ${scopeLabel(digest.scope)}, ${periodText(digest)}`;
  const parts = sections(digest.content);
  const text = [
    heading,
    '',
    ...summary(digest.content),
    ...parts.flatMap((section) => [
      '',
      `${section.title}:`,
      ...(section.lines.length > 0 ? section.lines.map((line) => `- ${line.at} ${line.text}`) : ['- none']),
    ]),
    '',
    `The printable page: ${digest.link}`,
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif">',
    `<h1 style="font-size: 1.3em">${escapeHtml(heading)}</h1>`,
    `<ul>${summary(digest.content)
      .map((line) => `<li>${escapeHtml(line)}</li>`)
      .join('')}</ul>`,
    ...parts.map(
      (section) =>
        `<h2 style="font-size: 1.1em">${escapeHtml(section.title)}</h2>` +
        (section.lines.length > 0
          ? `<table>${section.lines.map((line) => `<tr><td>${escapeHtml(line.at)}</td><td>${escapeHtml(line.text)}</td></tr>`).join('')}</table>`
          : '<p>None.</p>'),
    ),
    `<p><a href="${escapeHtml(digest.link)}">The printable page</a></p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
