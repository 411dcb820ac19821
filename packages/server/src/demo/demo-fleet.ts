// The demo fleet as a plan: its hosts, each one's reports over the last weeks, and the refused uploads, all drawn
// from one seed, so that the same seed gives the same fleet (times are counted back from `now`).
import { createHash } from 'node:crypto';
import { SHIPPED_LYNIS_VERSION, type DemoOs, type DemoReportLines } from './demo-report.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A small, fast generator of numbers in [0, 1) from a 32-bit seed (mulberry32): the same seed, the same fleet. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
/** An item drawn with the given weights. */
function weighted<T>(random: Random, items: readonly (readonly [T, number])[]): T {
  let left = random() * items.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [item, weight] of items) if ((left -= weight) < 0) return item;
  return items[items.length - 1]![0];
}

/** Roles: the host name's prefix, the `system-groups=` it is filed under, and how common it is. */
const ROLES = [
  { prefix: 'web', groups: ['webservers'], weight: 30 },
  { prefix: 'app', groups: ['appservers'], weight: 20 },
  { prefix: 'db', groups: ['databases'], weight: 12 },
  { prefix: 'cache', groups: ['caches'], weight: 8 },
  { prefix: 'ci', groups: ['ci'], weight: 8 },
  { prefix: 'lb', groups: ['loadbalancers', 'webservers'], weight: 6 },
  { prefix: 'mail', groups: ['mail'], weight: 4 },
  { prefix: 'k8s-node', groups: ['kubernetes'], weight: 10 },
  { prefix: 'bastion', groups: ['bastions'], weight: 2 },
] as const;
const REGIONS = ['eu', 'us', 'ap'] as const;
const ENVIRONMENTS = [
  ['prod', 60],
  ['staging', 25],
  ['dev', 15],
] as const;

const OPERATING_SYSTEMS: readonly (readonly [DemoOs, number])[] = [
  [{ name: 'Debian', fullName: 'Debian GNU/Linux 12 (bookworm)', version: '12', kernel: '6.1.0-28-amd64', debianFamily: true }, 35],
  [{ name: 'Debian', fullName: 'Debian GNU/Linux 11 (bullseye)', version: '11', kernel: '5.10.0-33-amd64', debianFamily: true }, 10],
  [{ name: 'Ubuntu', fullName: 'Ubuntu 24.04.1 LTS', version: '24.04', kernel: '6.8.0-49-generic', debianFamily: true }, 25],
  [{ name: 'Ubuntu', fullName: 'Ubuntu 22.04.5 LTS', version: '22.04', kernel: '5.15.0-125-generic', debianFamily: true }, 15],
  [{ name: 'Rocky Linux', fullName: 'Rocky Linux 9.5 (Blue Onyx)', version: '9.5', kernel: '5.14.0-503.14.1.el9_5.x86_64', debianFamily: false }, 10],
  [{ name: 'AlmaLinux', fullName: 'AlmaLinux 8.10 (Cerulean Leopard)', version: '8.10', kernel: '4.18.0-553.el8_10.x86_64', debianFamily: false }, 5],
];
const LYNIS_VERSIONS = [
  [SHIPPED_LYNIS_VERSION, 40],
  ['3.0.9', 30],
  ['3.1.1', 20],
  ['3.1.2', 10],
] as const;

/** One demo host: who it is, and the reports it sent, oldest first. */
export interface DemoHost {
  hostname: string;
  hostId: string;
  hostId2: string;
  stale: boolean;
  reports: DemoReportLines[];
}

/** A refused upload or license check, as the rejection log records it, at the time it happened. */
export interface DemoRefusal {
  at: Date;
  operation: 'uploadReport' | 'checkLicense';
  reason: string;
  /** The HTTP status answered. */
  status: number;
  /** Whether it named the demo key (else a key the server does not know). */
  withDemoKey: boolean;
  hostId: string;
  remoteAddress: string;
}

/** The sizes of the shipped report's pools of findings (see `findingIndexes`). */
export interface FindingPool {
  warnings: number[];
  suggestions: number[];
}

/** A host id as Lynis makes them: hex of a SHA-1 (`hostid`) and of a SHA-256 (`hostid2`), here of the seed and name. */
const hexId = (algorithm: 'sha1' | 'sha256', seed: number, name: string) => createHash(algorithm).update(`demo:${seed}:${name}`).digest('hex');

/** Every 17th host (the 6th first) stopped reporting weeks ago: a few stale hosts in any fleet of more than five. */
const isStale = (index: number) => index % 17 === 5;

/** The demo fleet of `count` hosts drawn from `seed`, its newest reports shortly before `now`. */
export function planFleet(count: number, seed: number, now: Date, pool: FindingPool): DemoHost[] {
  const random = seededRandom(seed);
  const numbers = new Map<string, number>();
  return Array.from({ length: count }, (_, index) => {
    const role = weighted(
      random,
      ROLES.map((r) => [r, r.weight] as const),
    );
    const region = pick(random, REGIONS);
    const environment = weighted(random, ENVIRONMENTS);
    const family = `${role.prefix}-${region}${environment === 'prod' ? '' : `.${environment}`}`;
    const number = (numbers.get(family) ?? 0) + 1;
    numbers.set(family, number);
    const domain = environment === 'prod' ? 'example.test' : `${environment}.example.test`;
    const hostname = `${role.prefix}-${region}-${String(number).padStart(2, '0')}.${domain}`;
    const tags: string[] = [environment, region];
    if (environment === 'prod' && (role.prefix === 'db' || role.prefix === 'web') && random() < 0.3) tags.push('pci');
    const host = {
      hostname,
      hostId: hexId('sha1', seed, hostname),
      hostId2: hexId('sha256', seed, hostname),
      stale: isStale(index),
    };
    const identity = { ...host, os: weighted(random, OPERATING_SYSTEMS), groups: [...role.groups], tags, lynisVersion: weighted(random, LYNIS_VERSIONS) };
    return { ...host, reports: planReports(random, identity, now, pool) };
  });
}

/** What stays the same across one host's reports. */
type HostIdentity = Pick<DemoReportLines, 'hostname' | 'hostId' | 'hostId2' | 'os' | 'groups' | 'tags' | 'lynisVersion'> & { stale: boolean };

/**
 * A host's reports, oldest first: 2 to 6 most of the time (1 for one host in ten), about a week apart, the newest
 * within the last day and a half (stale hosts: 15 to 35 days ago). Its hardening index (45–90 on the newest)
 * climbs a little from report to report as findings are fixed: older reports keep more suggestions.
 */
function planReports(random: Random, host: HostIdentity, now: Date, pool: FindingPool): DemoReportLines[] {
  const count = random() < 0.1 ? 1 : between(random, 2, 6);
  const newestAt = now.getTime() - (host.stale ? between(random, 15 * 24, 35 * 24) : between(random, 1, 36)) * HOUR_MS - between(random, 0, 3599) * 1000;
  const newestIndex = between(random, 45, 90);
  // The newest report's findings: hardened hosts keep fewer of the shipped report's suggestions and warnings.
  const keepShare = 0.95 - ((newestIndex - 45) / 45) * 0.6;
  const suggestions = pool.suggestions.filter(() => random() < keepShare);
  const warnings = pool.warnings.filter(() => random() < keepShare * 0.8);
  const { stale: _stale, ...identity } = host;
  const reports: DemoReportLines[] = [];
  for (let age = count - 1; age >= 0; age--) {
    // An older report: a lower index, and a few more of the pool's suggestions still open.
    const extra = pool.suggestions.filter((index) => !suggestions.includes(index) && random() < 0.08 * age);
    reports.push({
      ...identity,
      hardeningIndex: Math.max(20, newestIndex - age * between(random, 0, 3)),
      finishedAt: new Date(newestAt - age * between(random, 5, 9) * DAY_MS - between(random, 0, 6) * HOUR_MS),
      keptFindings: new Set([...warnings, ...suggestions, ...extra]),
    });
  }
  return reports;
}

/** Documentation addresses (RFC 5737): refusals come from somewhere, and from nowhere real. */
const ADDRESS_NETS = ['192.0.2', '198.51.100', '203.0.113'] as const;
/** Reasons of refusals with the status answered, and how common each is. */
const REFUSAL_REASONS: readonly (readonly [{ reason: string; status: number }, number])[] = [
  [{ reason: 'invalid-key', status: 401 }, 40],
  [{ reason: 'not-a-report', status: 400 }, 15],
  [{ reason: 'host-quota-exceeded', status: 429 }, 15],
  [{ reason: 'too-large', status: 413 }, 10],
  [{ reason: 'rate-limited', status: 429 }, 20],
];

/**
 * Refused uploads over the last 14 days, about one for every eight hosts (at least five): keys the server does not
 * know (some from hosts of the fleet with an old key, some from strangers, some only checking the license), and
 * with the demo key reports refused for what they were or for the key's quota.
 */
export function planRefusals(hosts: readonly DemoHost[], seed: number, now: Date): DemoRefusal[] {
  const random = seededRandom(seed ^ 0x5eed);
  const count = Math.max(5, Math.round(hosts.length / 8));
  return Array.from({ length: count }, (): DemoRefusal => {
    const { reason, status } = weighted(random, REFUSAL_REASONS);
    const stranger = reason === 'invalid-key' && random() < 0.5;
    return {
      at: new Date(now.getTime() - between(random, 0, 14 * 24 * 60 - 1) * 60_000),
      operation: reason === 'invalid-key' && random() < 0.3 ? 'checkLicense' : 'uploadReport',
      reason,
      status,
      withDemoKey: reason !== 'invalid-key',
      hostId: stranger || hosts.length === 0 ? hexId('sha1', seed, `stranger-${random()}`) : pick(random, hosts).hostId,
      remoteAddress: `${pick(random, ADDRESS_NETS)}.${between(random, 1, 254)}`,
    };
  }).sort((a, b) => a.at.getTime() - b.at.getTime());
}
