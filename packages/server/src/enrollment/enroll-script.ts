import { ENROLL_SCRIPT_BODY } from './enroll-script-body.js';
import { hostPort, type IntakeAddress } from './enroll-command.js';
import { shellQuote } from './shell-quote.js';

/** What one enrollment's script is made for. */
export interface EnrollScriptSettings {
  intake: IntakeAddress;
  /** The path prefix of the collector endpoints, e.g. `api/audit` (Lynis adds `/license/` and `/upload/`). */
  auditPrefix: string;
  /** The enrollment's alias of its license key, which the host sends as its key. */
  licenseKeyAlias: string;
  systemGroups: string[];
  tags: string[];
  customer: string | null;
  /** Where the host will appear, printed at the end. */
  dashboardUrl: string;
}

/**
 * The enroll script for one enrollment: a header assigning its settings, each single-quoted (text only, whatever it
 * holds), then the body every enrollment shares.
 */
export function renderEnrollScript(settings: EnrollScriptSettings): string {
  const { intake } = settings;
  const values: [string, string][] = [
    ['COLLECTOR', `${hostPort(intake.host, intake.port)}/${settings.auditPrefix}`],
    ['LICENSE_KEY', settings.licenseKeyAlias],
    ['SYSTEM_GROUPS', settings.systemGroups.join(',')],
    ['TAGS', settings.tags.join(',')],
    ['CUSTOMER', settings.customer ?? ''],
    ['DASHBOARD_URL', settings.dashboardUrl],
    ['CERTIFICATE', intake.scheme === 'https' && intake.certificate ? intake.certificate.trim() : ''],
  ];
  return [
    '#!/bin/sh',
    '# Enrolls this host with the audit collector (see --help). Made for one enrollment: it carries its license key.',
    'set -e',
    '',
    "# This enrollment's settings: text in single quotes, never expanded.",
    '# shellcheck disable=SC2016',
    ...values.map(([name, value]) => `${name}=${shellQuote(value)}`),
    ENROLL_SCRIPT_BODY,
  ].join('\n');
}
