import { getRawReport } from '@org/audit-client/sdk';
import { data } from '../api.js';
import type { PageProps } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';

/** A stored report as the host sent it (license key redacted), as plain text. */
export function RawReportPage({ client, route: { id }, onUnauthorized }: PageProps<'raw-report'>) {
  const [raw] = useLoad(() => data(getRawReport({ client, path: { reportId: id }, parseAs: 'text' })), id, onUnauthorized);
  return (
    <article aria-labelledby="raw-title">
      <p>
        <a
          href="#"
          onClick={(event) => {
            event.preventDefault();
            history.back();
          }}
        >
          ← Back
        </a>
      </p>
      <h1 id="raw-title" tabIndex={-1}>
        Report <span className="mono">{id}</span>
      </h1>
      <Status loaded={raw} />
      {raw.state === 'ready' && <pre className="raw">{String(raw.value)}</pre>}
    </article>
  );
}
