import { useState, type FormEvent, type ReactNode } from 'react';
import {
  createLicenseKey,
  listLicenseKeys,
  revokeLicenseKey,
  rotateLicenseKey,
  updateLicenseKey,
  type Client,
  type LicenseKeyInfo,
  type LicenseKeySettings,
} from '@org/audit-client/sdk';
import { data } from '../api.js';
import { When } from '../components/When.js';
import { useChange, type Change } from '../use-change.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { LoadedTable, type Column } from '../components/Table.js';

/** License keys: list, create (the key shown once), set their quotas of hosts, revoke and rotate. */
export function KeysPage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [keys, reload] = useLoad(() => data(listLicenseKeys({ client })), 'keys', onUnauthorized);
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<{ label: string; key: string }>();
  const { problem, change } = useChange(reload, onUnauthorized);
  const items = mapLoaded(keys, (value) => value.items);
  const actions = (key: LicenseKeyInfo) => <KeyActions keyInfo={key} client={client} change={change} onNewKey={setShown} />;
  const create = (event: FormEvent) => {
    event.preventDefault();
    void change(async () => {
      const created = await data(createLicenseKey({ client, body: label.trim() ? { label: label.trim() } : {} }));
      setShown({ label: created.key.label ?? created.key.id, key: created.licenseKey });
      setLabel('');
    });
  };
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title" tabIndex={-1}>
        License keys
      </h1>
      <form className="filters" onSubmit={create}>
        <label htmlFor="key-label">Label of a new key</label>
        <input id="key-label" value={label} onChange={(event) => setLabel(event.target.value)} placeholder="web servers" maxLength={255} />
        <button type="submit">Create key</button>
      </form>
      {shown && (
        <div className="shown-once" role="status">
          <p>
            New key for <strong>{shown.label}</strong>. Copy it now: it is shown only this once.
          </p>
          <output className="mono" aria-label="New license key">
            {shown.key}
          </output>
          <button type="button" onClick={() => setShown(undefined)}>
            Done
          </button>
        </div>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <LoadedTable loaded={items} columns={columns(actions)} rowKey={(key) => key.id} />
    </section>
  );
}

/** The columns of the keys list; the last holds each key's quotas and actions. */
function columns(actions: (key: LicenseKeyInfo) => ReactNode): Column<LicenseKeyInfo>[] {
  return [
    { header: 'Label', cell: (key) => key.label ?? '—' },
    { header: 'Prefix', cellClassName: 'mono', cell: (key) => `${key.prefix}…` },
    { header: 'State', cell: (key) => key.state },
    { header: 'Created', cell: (key) => <When time={key.createdAt} /> },
    { header: 'Expires', cell: (key) => (key.expiresAt ? <When time={key.expiresAt} /> : 'never') },
    { header: 'Last upload', cell: (key) => <When time={key.lastUploadAt} /> },
    { header: 'New hosts a day', className: 'number', cell: (key) => key.newHostsPerDay ?? 'server default' },
    { header: 'Most hosts', className: 'number', cell: (key) => key.maxHosts ?? 'no maximum' },
    { header: 'Actions', cell: actions },
  ];
}

/** A key's quotas, and for a valid key the buttons that rotate it (the new key is shown once) and revoke it. */
function KeyActions({
  keyInfo,
  client,
  change,
  onNewKey,
}: {
  keyInfo: LicenseKeyInfo;
  client: Client;
  change: Change;
  onNewKey(shown: { label: string; key: string }): void;
}) {
  return (
    <>
      <KeyQuotas
        keyInfo={keyInfo}
        onSave={(settings) => void change(async () => void (await data(updateLicenseKey({ client, path: { keyId: keyInfo.id }, body: settings }))))}
      />
      {keyInfo.state === 'valid' && (
        <div className="actions">
          <button
            type="button"
            onClick={() =>
              confirm(`Rotate the key "${keyInfo.label ?? keyInfo.id}"? The old key keeps working for a day.`) &&
              void change(async () => {
                const rotated = await data(rotateLicenseKey({ client, path: { keyId: keyInfo.id }, body: {} }));
                onNewKey({ label: rotated.key.label ?? rotated.key.id, key: rotated.licenseKey });
              })
            }
          >
            Rotate
          </button>
          <button
            type="button"
            onClick={() =>
              confirm(`Revoke the key "${keyInfo.label ?? keyInfo.id}"? Its hosts' uploads are refused from now on.`) &&
              void change(async () => void (await data(revokeLicenseKey({ client, path: { keyId: keyInfo.id } }))))
            }
          >
            Revoke
          </button>
        </div>
      )}
    </>
  );
}

/**
 * A key's quotas of hosts, changed in place: new hosts a day (blank: the server's default, `--key-new-hosts-per-day`)
 * and most hosts (blank: no maximum). Reports from hosts the key knows are never refused by them.
 */
function KeyQuotas({ keyInfo, onSave }: { keyInfo: LicenseKeyInfo; onSave(settings: LicenseKeySettings): void }) {
  const [perDay, setPerDay] = useState(keyInfo.newHostsPerDay?.toString() ?? '');
  const [most, setMost] = useState(keyInfo.maxHosts?.toString() ?? '');
  const save = (event: FormEvent) => {
    event.preventDefault();
    onSave({ newHostsPerDay: perDay === '' ? null : Number(perDay), maxHosts: most === '' ? null : Number(most) });
  };
  const name = keyInfo.label ?? keyInfo.id;
  return (
    <details>
      <summary>Quotas</summary>
      <form onSubmit={save}>
        <label htmlFor={`per-day-${keyInfo.id}`}>New hosts a day (blank: server default)</label>
        <input
          id={`per-day-${keyInfo.id}`}
          type="number"
          min={0}
          max={100_000_000}
          value={perDay}
          onChange={(event) => setPerDay(event.target.value)}
          aria-label={`New hosts a day for ${name}`}
        />
        <label htmlFor={`most-${keyInfo.id}`}>Most hosts (blank: no maximum)</label>
        <input
          id={`most-${keyInfo.id}`}
          type="number"
          min={0}
          max={100_000_000}
          value={most}
          onChange={(event) => setMost(event.target.value)}
          aria-label={`Most hosts for ${name}`}
        />
        <button type="submit">Save quotas</button>
      </form>
    </details>
  );
}
