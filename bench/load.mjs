// One measurement: autocannon, used as a library, against one server.
import autocannon from 'autocannon';

/**
 * Sends `body` as a form POST to `url` from `connections` connections, for `seconds` or for `amount` requests,
 * and tells what came back. `expectedStatus` is the one right answer; any other status is counted as wrong.
 * `body` may be a list (e.g. one upload per host): each connection sends them in turn, starting at its own.
 */
export async function measure({ url, body, connections, seconds, amount, expectedStatus }) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    ...(Array.isArray(body) ? { requests: [{ setupRequest: bodyInTurn(body) }] } : { body }),
    connections,
    pipelining: 1,
    timeout: 120,
    ...(amount ? { amount } : { duration: seconds }),
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
  const answered = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  const expected = statuses[expectedStatus] ?? 0;
  return {
    durationSeconds: result.duration,
    answered,
    expected,
    wrongStatus: answered - expected,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    requestsPerSecond: expected / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

/** An autocannon `setupRequest` giving each request the next of `bodies`, each connection starting at its own. */
function bodyInTurn(bodies) {
  let connections = 0;
  return (request, context) => {
    context.next ??= (connections++ * 7919) % bodies.length; // spread apart, so connections seldom send one host at once
    const body = bodies[context.next];
    context.next = (context.next + 1) % bodies.length;
    return { ...request, body };
  };
}
