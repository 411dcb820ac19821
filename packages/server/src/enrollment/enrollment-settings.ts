import { DomainError } from '../errors/domain-error.js';
import { hostPort, type IntakeAddress } from './enroll-command.js';

/** What the command and the script say about where hosts reach the server. */
export interface EnrollmentSettings {
  /** The collector endpoints' path prefix, e.g. `api/audit`. */
  auditPrefix: string;
  /** Whether `--public-host` names the host, whatever the request says. */
  hasPublicHost: boolean;
  /** The intake's address as hosts reach it; `requestHost` is the host name the request at hand was sent to. */
  intakeAddress(requestHost: string): IntakeAddress;
  /** The dashboard's URL, where enrolled hosts appear. */
  dashboardUrl(requestHost: string): string;
}

/** The server's side of the settings: most known at start, the ports once the listeners listen. */
export interface EnrollmentServerFacts {
  /** `--public-host`: the name hosts reach the server by; unset, the host name of the request at hand. */
  publicHost?: string;
  scheme: 'http' | 'https';
  /** The certificate the intake serves (PEM), when HTTPS. */
  certificate?: string;
  /** `--tool-segment`: the collector endpoints are under `/api/<segment>/`. */
  toolSegment: string;
  intakePort: () => number;
  /** The admin listener's port, where the dashboard is. */
  dashboardPort: () => number;
}

/** A host name or address as a URL's host, without an IPv6 address' brackets; undefined for anything else. */
export function plainHostName(text: string): string | undefined {
  const host = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return /^[A-Za-z0-9.-]{1,253}$/.test(host) || /^[0-9A-Fa-f:.]{2,45}$/.test(host) ? host : undefined;
}

export function enrollmentSettings(facts: EnrollmentServerFacts): EnrollmentSettings {
  const hostFor = (requestHost: string): string => {
    const host = facts.publicHost ?? plainHostName(requestHost);
    if (!host) throw new DomainError('invalid', 'The request names no usable host name: set --public-host');
    return host;
  };
  return {
    auditPrefix: `api/${facts.toolSegment}`,
    hasPublicHost: facts.publicHost !== undefined,
    intakeAddress: (requestHost) => ({ scheme: facts.scheme, host: hostFor(requestHost), port: facts.intakePort(), certificate: facts.certificate }),
    dashboardUrl: (requestHost) => `${facts.scheme}://${hostPort(hostFor(requestHost), facts.dashboardPort())}/dashboard/`,
  };
}
