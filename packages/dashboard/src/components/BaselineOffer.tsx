import { previewBaselinePolicy, type Client, type RulePreview } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { LoadedTable, type Column } from './Table.js';

const COLUMNS: Column<RulePreview>[] = [
  { header: 'Rule', cell: (rule) => rule.ruleId },
  { header: 'Why', className: 'optional', cell: (rule) => rule.description },
  { header: 'Pass', className: 'number', cell: (rule) => rule.passing },
  { header: 'Fail', className: 'number', cell: (rule) => rule.failing },
  { header: 'Error', className: 'number', cell: (rule) => rule.errors },
];

/**
 * The shipped baseline, offered while no policy is named Baseline (it can be added beside other policies): the
 * button that creates it, and how many hosts each of its rules would pass and fail now, from the server's preview.
 */
export function BaselineOffer({ client, onUnauthorized, onEnable }: { client: Client; onUnauthorized(): void; onEnable(): void }) {
  const [loaded] = useLoad(() => data(previewBaselinePolicy({ client })), 'baseline-preview', onUnauthorized);
  const evaluated =
    loaded.state === 'ready'
      ? `${loaded.value.evaluatedHosts} of ${loaded.value.hostsWithReports} hosts with a report (${loaded.value.failingHosts} would fail at least one)`
      : 'the hosts';
  return (
    <section aria-labelledby="baseline-title">
      <h2 id="baseline-title">The shipped baseline</h2>
      <p>
        <button type="button" onClick={onEnable}>
          Enable the baseline
        </button>{' '}
        Hardening index, vulnerable packages, firewall, warnings and the audit's age. Before it is enabled, its rules on {evaluated}:
      </p>
      <LoadedTable
        caption="Hosts each baseline rule would pass and fail"
        columns={COLUMNS}
        loaded={mapLoaded(loaded, (preview) => preview.rules)}
        rowKey={(rule) => rule.ruleId}
      />
    </section>
  );
}
