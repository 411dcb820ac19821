import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AuditHooks } from '@org/audit-server-core';

/** The server's Prometheus metrics, fed by core's hooks. One registry per server, so servers never share counts. */
export interface ServerMetrics {
  registry: Registry;
  /** Hooks to pass to `createAuditApi`: they count requests, uploads and refusals. */
  hooks: AuditHooks;
  /** Requests being served on the collectors' port right now. */
  inFlight: InFlightCount;
}

/** A count of requests being served, told of each start and end. */
export interface InFlightCount {
  inc(): void;
  dec(): void;
}

/** What the metrics read from the server's parts when scraped. */
export interface MetricsSources {
  /** Bytes of request bodies the intake holds now. */
  bodyBytesInFlight(): number;
  /** Whether the rate limits' Redis is reachable; with it, `audit_rate_limit_store_up` is exported. */
  rateLimitStoreReachable?: () => boolean;
}

/** Creates the metrics registry: process metrics plus the audit API's own. */
export function createMetrics(sources: MetricsSources): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: 'audit_requests_total',
    help: 'Requests to the audit API by operation and HTTP status',
    labelNames: ['operation', 'status'],
    registers,
  });
  const duration = new Histogram({
    name: 'audit_request_duration_seconds',
    help: 'Time to answer an audit API request, body reading and storing included',
    labelNames: ['operation'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const bytes = new Counter({
    name: 'audit_request_bytes_received_total',
    help: 'Request body bytes read by the audit API',
    labelNames: ['operation'],
    registers,
  });
  const accepted = new Counter({ name: 'audit_uploads_accepted_total', help: 'Reports stored', registers });
  const rejected = new Counter({
    name: 'audit_requests_rejected_total',
    help: 'Refused license checks and uploads by operation and reason',
    labelNames: ['operation', 'reason'],
    registers,
  });
  // A plain number read when scraped: a gauge's own inc and dec hash their labels twice per request.
  let requestsInFlight = 0;
  const inFlight: InFlightCount = { inc: () => void requestsInFlight++, dec: () => void requestsInFlight-- };
  new Gauge({
    name: 'audit_http_requests_in_flight',
    help: "Requests being served on the collectors' port",
    registers,
    collect() {
      this.set(requestsInFlight);
    },
  });
  new Gauge({
    name: 'audit_body_bytes_in_flight',
    help: 'Bytes of request bodies held by the intake, against its memory budget (--max-body-bytes-in-flight)',
    registers,
    collect() {
      this.set(sources.bodyBytesInFlight());
    },
  });
  const { rateLimitStoreReachable } = sources;
  if (rateLimitStoreReachable) {
    new Gauge({
      name: 'audit_rate_limit_store_up',
      help: "1 while the rate limits' Redis is reachable, 0 while each server counts in its own memory",
      registers,
      collect() {
        this.set(rateLimitStoreReachable() ? 1 : 0);
      },
    });
  }

  // Each label combination's child is looked up once: prom-client hashes a label object on every call otherwise.
  const requestsOf = memoize((operation: string, status: number) => requests.labels(operation, String(status)));
  const durationOf = memoize((operation: string) => duration.labels(operation));
  const bytesOf = memoize((operation: string) => bytes.labels(operation));
  const rejectedOf = memoize((operation: string, reason: string) => rejected.labels(operation, reason));

  return {
    registry,
    inFlight,
    hooks: {
      onReportStored: () => accepted.inc(),
      onRequestRejected: ({ operation, reason }) => rejectedOf(operation, reason).inc(),
      onRequestCompleted: ({ operation, status, durationMs, bytesReceived }) => {
        requestsOf(operation, status).inc();
        durationOf(operation).observe(durationMs / 1000);
        bytesOf(operation).inc(bytesReceived);
      },
    },
  };
}

/** `make` remembered per argument list (a handful of operations, statuses and reasons: the map stays small). */
function memoize<Args extends (string | number)[], Result>(make: (...args: Args) => Result): (...args: Args) => Result {
  const made = new Map<string, Result>();
  return (...args) => {
    const key = args.join('\u0000');
    let result = made.get(key);
    if (result === undefined) made.set(key, (result = make(...args)));
    return result;
  };
}
