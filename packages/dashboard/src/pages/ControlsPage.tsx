import { useState, type FormEvent } from 'react';
import { importControls, listControls, type Client, type Control, type ControlImportResult, type ControlReport } from '@org/audit-client/sdk';
import { ApiError, data } from '../api.js';
import { badLines } from '../control-text.js';
import { useCan } from '../permissions.js';
import { hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';

type ControlsRoute = Extract<Route, { page: 'controls' }>;
type ControlsProps = { client: Client; route: ControlsRoute; onUnauthorized(): void };

/**
 * The controls of a framework (CIS, ISO27001, or any name a mapping file or a policy rule gives): each with its hosts
 * passing, failing and unknown, and its evidence (the rules' results, the findings, the first failing hosts) shown
 * on demand. The framework lives in the URL; without one, the first. Admins import mapping files here.
 */
export function ControlsPage({ client, route, onUnauthorized }: ControlsProps) {
  const [loaded, reload] = useLoad(() => controlReport(client, route.framework), hrefOf(route), onUnauthorized);
  const mayImport = useCan('importControls');
  return (
    <section aria-labelledby="controls-title">
      <h1 id="controls-title" tabIndex={-1}>
        Controls
      </h1>
      <p className="hint">
        A control fails on a host while a rule mapped to it fails or errs there (no exception covering it), or a Lynis test id mapped to it is an open,
        acknowledged or regressed finding of the host. It passes when it does not fail and a mapped rule has a result there (passing or excepted) or a mapped
        finding was resolved or accepted. Otherwise it is unknown: a host never warned about a test id has no finding to tell whether the test ran.
      </p>
      <Status loaded={loaded} />
      {loaded.state === 'ready' && <FrameworkControls report={loaded.value} />}
      {mayImport && <ImportForm client={client} onUnauthorized={onUnauthorized} onImported={reload} />}
    </section>
  );
}

/** The report of the framework named, or of the first one known when none is named. */
async function controlReport(client: Client, framework: string | undefined): Promise<ControlReport> {
  const report = await data(listControls({ client, query: { framework } }));
  const first = report.frameworks[0];
  if (framework !== undefined || !first) return report;
  return data(listControls({ client, query: { framework: first.name } }));
}

/** The framework picker and the table of its controls. */
function FrameworkControls({ report }: { report: ControlReport }) {
  if (report.frameworks.length === 0)
    return <p>No frameworks yet: import a mapping file (below, or with audit-client controls import FILE), or name controls on a policy's rules.</p>;
  return (
    <>
      <form className="filters" aria-label="Choose a framework" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="control-framework">Framework</label>
        <select
          id="control-framework"
          value={report.framework ?? ''}
          onChange={(event) => (window.location.hash = hrefOf({ page: 'controls', framework: event.target.value }))}
        >
          {report.framework === null && <option value="">Choose a framework</option>}
          {report.frameworks.map((framework) => (
            <option key={framework.name} value={framework.name}>
              {framework.name} ({framework.controls} control{framework.controls === 1 ? '' : 's'})
            </option>
          ))}
        </select>
      </form>
      {report.framework !== null && <ControlTable report={report} />}
    </>
  );
}

/** Each control with its hosts as a bar and figures; its evidence opened under it. */
function ControlTable({ report }: { report: ControlReport }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) => setOpen((ids) => (ids.has(id) ? new Set([...ids].filter((known) => known !== id)) : new Set([...ids, id])));
  const columns: Column<Control>[] = [
    {
      header: 'Control',
      cell: (control) => (
        <>
          <strong>{control.controlId}</strong>
          {control.title !== null && <div className="sub">{control.title}</div>}
        </>
      ),
    },
    { header: 'Hosts', cellClassName: 'share', cell: (control) => <HostsBar hosts={control.hosts} /> },
    { header: 'Passing', className: 'number', cell: (control) => control.hosts.passing },
    { header: 'Failing', className: 'number', cell: (control) => control.hosts.failing },
    { header: 'Unknown', className: 'number', cell: (control) => control.hosts.unknown },
    {
      header: <span className="visually-hidden">Evidence</span>,
      cell: (control) => (
        <button type="button" aria-expanded={open.has(control.controlId)} onClick={() => toggle(control.controlId)}>
          Evidence<span className="visually-hidden"> of {control.controlId}</span>
        </button>
      ),
    },
  ];
  return (
    <Table
      className="controls"
      caption={`${report.framework ?? ''}: ${report.controls.length} control${report.controls.length === 1 ? '' : 's'}`}
      columns={columns}
      rows={report.controls}
      rowKey={(control) => control.controlId}
      empty={<p>No controls in {report.framework}.</p>}
      below={(control) => open.has(control.controlId) && <Evidence control={control} />}
      scroll
    />
  );
}

/** A control's hosts as one bar: passing, failing and unknown side by side, each as wide as its share. */
function HostsBar({ hosts }: { hosts: Control['hosts'] }) {
  const total = Math.max(hosts.passing + hosts.failing + hosts.unknown, 1);
  const parts = [
    ['passing', hosts.passing],
    ['failing', hosts.failing],
    ['unknown', hosts.unknown],
  ] as const;
  return (
    <div className="hosts-bar" role="img" aria-label={`${hosts.passing} passing, ${hosts.failing} failing, ${hosts.unknown} unknown`}>
      {parts.map(
        ([name, count]) =>
          count > 0 && <span key={name} className={`hosts-bar-${name}`} style={{ width: `${(count / total) * 100}%` }} title={`${count} ${name}`} />,
      )}
    </div>
  );
}

/** What a control is mapped to and what the hosts show of it: the rules' results, the findings, the first failing hosts. */
function Evidence({ control }: { control: Control }) {
  const { rules, findings } = control.evidence;
  return (
    <div className="evidence">
      <p className="sub">
        Mapped to {control.testIds.length > 0 ? `test ids ${control.testIds.join(', ')}` : 'no test id'};{' '}
        {control.ruleIds.length > 0 ? `rules ${control.ruleIds.join(', ')}` : 'no rule'} (from {control.sources.join(' and ')}).
      </p>
      <h2>Rules</h2>
      {rules.length === 0 ? (
        <p>No policy has a rule mapped to it.</p>
      ) : (
        <ul className="plain">
          {rules.map((rule) => (
            <li key={`${rule.policyId} ${rule.ruleId}`}>
              <a href={hrefOf({ page: 'policy', id: rule.policyId, rule: rule.ruleId, offset: 0 })}>
                {rule.policyName}/{rule.ruleId}
              </a>
              : {rule.pass} pass, {rule.fail} fail, {rule.error} error, {rule.waived} waived
            </li>
          ))}
        </ul>
      )}
      <h2>Findings</h2>
      {findings.length === 0 ? (
        <p>No host has a finding of its test ids.</p>
      ) : (
        <ul className="plain">
          {findings.map((finding) => (
            <li key={`${finding.kind} ${finding.testId}`}>
              <a href={hrefOf({ page: 'findings', view: 'tracked', kind: finding.kind, testId: finding.testId, offset: 0 })}>
                {finding.testId} ({finding.kind})
              </a>
              : open on {finding.openHosts} host{finding.openHosts === 1 ? '' : 's'}, accepted on {finding.acceptedHosts}
            </li>
          ))}
        </ul>
      )}
      <h2>Failing hosts</h2>
      {control.failingHosts.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="plain">
          {control.failingHosts.map((host) => (
            <li key={host.hostRecordId}>
              <a href={hrefOf({ page: 'host', id: host.hostRecordId })}>{host.hostname ?? host.hostRecordId}</a>: {host.because.join(', ')}
            </li>
          ))}
          {control.hosts.failing > control.failingHosts.length && <li className="sub">and {control.hosts.failing - control.failingHosts.length} more</li>}
        </ul>
      )}
    </div>
  );
}

/** An admin's import of a mapping file: what it replaced, or each bad line the server named. */
function ImportForm({ client, onUnauthorized, onImported }: { client: Client; onUnauthorized(): void; onImported(): void }) {
  const [file, setFile] = useState<File>();
  const [outcome, setOutcome] = useState<{ imported: ControlImportResult } | { problems: string[] }>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setOutcome(undefined);
    try {
      const imported = await data(importControls({ client, body: await file.text() }));
      setOutcome({ imported });
      onImported();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return onUnauthorized();
      setOutcome({ problems: badLines(error instanceof Error ? error.message : String(error)) });
    }
  };
  return (
    <form className="panel" aria-labelledby="controls-import-title" onSubmit={(event) => void submit(event)}>
      <h2 id="controls-import-title">Import a mapping file</h2>
      <p className="hint">
        CSV with the header <code>framework,control_id,title,test_ids,rule_ids</code>, ids separated by spaces or <code>;</code>. Every framework the file names
        is replaced; a file with a bad line changes nothing.
      </p>
      <label htmlFor="controls-file">Mapping file</label>{' '}
      <input id="controls-file" type="file" accept=".csv,text/csv" onChange={(event) => setFile(event.target.files?.[0])} />{' '}
      <button type="submit" disabled={!file}>
        Import
      </button>
      {outcome && 'imported' in outcome && (
        <p role="status">
          Imported {outcome.imported.controls} control{outcome.imported.controls === 1 ? '' : 's'} of {outcome.imported.frameworks.join(', ')}.
        </p>
      )}
      {outcome && 'problems' in outcome && (
        <div className="error" role="alert">
          <ul className="plain">
            {outcome.problems.map((problem, index) => (
              <li key={index}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
    </form>
  );
}
