import { useState, type FormEvent, type ReactNode } from 'react';
import {
  createLicenseKey,
  listFacets,
  listLicenseKeys,
  revokeLicenseKey,
  rotateLicenseKey,
  updateLicenseKey,
  type Client,
  type LicenseKeyInfo,
  type LicenseKeySettings,
} from '@org/audit-client/sdk';
import { useCan } from '../permissions.js';
import { data } from '../api.js';
import { dateInputValue, startOfLocalDay } from '../date-input.js';
import { hostsRoute, hrefOf } from '../route.js';
import { When } from '../components/When.js';
import { useChange, type Change } from '../use-change.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { LoadedTable, type Column } from '../components/Table.js';
import { KeyExpiry } from '../components/KeyExpiry.js';

/** Most keys whose host counts are read (the facets' limit): the others link to their hosts without a count. */
const COUNTED_KEYS = 100;
const HOUR_S = 3600;

/**
 * License keys: list (each linking to its hosts, with their count), create (with an expiry; the key shown once),
 * set their quotas of hosts and expiry, revoke and rotate (with the old key's grace period).
 */
export function KeysPage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [keys, reload] = useLoad(
    async () => {
      const [list, hosts] = await Promise.all([data(listLicenseKeys({ client })), hostCounts(client)]);
      return { items: list.items, hosts };
    },
    'keys',
    onUnauthorized,
  );
  const [label, setLabel] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [shown, setShown] = useState<{ label: string; key: string }>();
  const { problem, change } = useChange(reload, onUnauthorized);
  const mayCreate = useCan('createLicenseKey');
  const items = mapLoaded(keys, (value) => value.items);
  const hosts = keys.state === 'ready' ? keys.value.hosts : undefined;
  const actions = (key: LicenseKeyInfo) => <KeyActions keyInfo={key} client={client} change={change} onNewKey={setShown} />;
  const create = (event: FormEvent) => {
    event.preventDefault();
    void change(async () => {
      const body = { ...(label.trim() ? { label: label.trim() } : {}), ...(expiresOn ? { expiresAt: startOfLocalDay(expiresOn) } : {}) };
      const created = await data(createLicenseKey({ client, body }));
      setShown({ label: created.key.label ?? created.key.id, key: created.licenseKey });
      setLabel('');
      setExpiresOn('');
    });
  };
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title" tabIndex={-1}>
        License keys
      </h1>
      {mayCreate && (
        <form className="filters" onSubmit={create}>
          <label htmlFor="key-label">Label of a new key</label>
          <input id="key-label" value={label} onChange={(event) => setLabel(event.target.value)} placeholder="web servers" maxLength={255} />
          <label htmlFor="key-expires">Expires on (local time; blank: never)</label>
          <input id="key-expires" type="date" min={dayAfter(new Date())} value={expiresOn} onChange={(event) => setExpiresOn(event.target.value)} />
          <button type="submit">Create key</button>
        </form>
      )}
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
      <LoadedTable loaded={items} columns={columns(actions, hosts)} rowKey={(key) => key.id} />
    </section>
  );
}

/** Hosts per key id, from the facets; undefined when the server cannot tell (the list is shown without counts). */
async function hostCounts(client: Client): Promise<Map<string, number> | undefined> {
  try {
    const facets = await data(listFacets({ client, query: { field: 'key', limit: COUNTED_KEYS } }));
    return new Map(facets.key.map((facet) => [facet.value, facet.hosts]));
  } catch {
    return undefined;
  }
}

/** The local day after `now`, as a date input's value: the first day a new key may expire on. */
const dayAfter = (now: Date) => dateInputValue(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));

/** The columns of the keys list; the last holds each key's quotas and actions. */
function columns(actions: (key: LicenseKeyInfo) => ReactNode, hosts: Map<string, number> | undefined): Column<LicenseKeyInfo>[] {
  return [
    { header: 'Label', cellClassName: 'words', cell: (key) => key.label ?? '—' },
    {
      header: 'Hosts',
      className: 'number',
      cell: (key) => (
        <a href={hrefOf(hostsRoute({ keyId: key.id }))} aria-label={`Hosts of ${key.label ?? key.prefix}`}>
          {hosts ? (hosts.get(key.id) ?? 0) : 'Hosts'}
        </a>
      ),
    },
    { header: 'Prefix', cellClassName: 'mono nowrap', cell: (key) => `${key.prefix}…` },
    { header: 'State', cell: (key) => key.state },
    { header: 'Created', cell: (key) => <When time={key.createdAt} /> },
    { header: 'Expires', cell: (key) => (key.expiresAt ? <When time={key.expiresAt} /> : 'never') },
    { header: 'Last upload', cell: (key) => <When time={key.lastUploadAt} /> },
    { header: 'New hosts a day', className: 'number', cellClassName: 'number nowrap', cell: (key) => key.newHostsPerDay ?? 'server default' },
    { header: 'Most hosts', className: 'number', cellClassName: 'number nowrap', cell: (key) => key.maxHosts ?? 'no maximum' },
    { header: 'Actions', cell: actions },
  ];
}

/** A key's quotas, its expiry unless revoked, and for a valid key the buttons that rotate it (the new key is shown once) and revoke it. */
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
  const mayUpdate = useCan('updateLicenseKey');
  const mayRotate = useCan('rotateLicenseKey');
  const mayRevoke = useCan('revokeLicenseKey');
  const update = (settings: LicenseKeySettings) =>
    change(async () => void (await data(updateLicenseKey({ client, path: { keyId: keyInfo.id }, body: settings }))));
  return (
    <>
      {mayUpdate && <KeyQuotas keyInfo={keyInfo} onSave={(settings) => void update(settings)} />}
      {mayUpdate && keyInfo.state !== 'revoked' && <KeyExpiry keyInfo={keyInfo} onSave={(expiresAt) => update({ expiresAt })} />}
      {mayRotate && keyInfo.state === 'valid' && (
        <KeyRotation
          keyInfo={keyInfo}
          onRotate={(graceSeconds) =>
            void change(async () => {
              const rotated = await data(rotateLicenseKey({ client, path: { keyId: keyInfo.id }, body: { graceSeconds } }));
              onNewKey({ label: rotated.key.label ?? rotated.key.id, key: rotated.licenseKey });
            })
          }
        />
      )}
      {mayRevoke && keyInfo.state === 'valid' && (
        <div className="actions">
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

/**
 * Rotating a key: a new key is made (shown once) and the old one keeps working for the grace period chosen (the
 * contract's default is a day; 0 ends it at once), so that hosts can be given the new key meanwhile.
 */
function KeyRotation({ keyInfo, onRotate }: { keyInfo: LicenseKeyInfo; onRotate(graceSeconds: number): void }) {
  const [hours, setHours] = useState('24');
  const name = keyInfo.label ?? keyInfo.id;
  const rotate = (event: FormEvent) => {
    event.preventDefault();
    const grace = Number(hours);
    if (confirm(`Rotate the key "${name}"? The old key keeps working for ${grace} hour${grace === 1 ? '' : 's'}.`)) onRotate(Math.round(grace * HOUR_S));
  };
  return (
    <details>
      <summary>Rotate</summary>
      <form onSubmit={rotate}>
        <label htmlFor={`grace-${keyInfo.id}`}>Old key keeps working for (hours)</label>
        <input
          id={`grace-${keyInfo.id}`}
          type="number"
          min={0}
          max={8760}
          step="any"
          required
          value={hours}
          onChange={(event) => setHours(event.target.value)}
          aria-label={`Grace period in hours for the old key of ${name}`}
        />
        <button type="submit">Rotate key</button>
      </form>
    </details>
  );
}
