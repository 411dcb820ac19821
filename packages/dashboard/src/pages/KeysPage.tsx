import { useState, type FormEvent } from 'react';
import { createLicenseKey, listLicenseKeys, revokeLicenseKey, rotateLicenseKey, updateLicenseKey, type Client, type LicenseKeyInfo, type LicenseKeySettings } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { useChange } from '../use-change.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';

/** License keys: list, create (the key shown once), set their quotas of hosts, revoke and rotate. */
export function KeysPage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [keys, reload] = useLoad(() => data(listLicenseKeys({ client })), 'keys', onUnauthorized);
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<{ label: string; key: string }>();
  const { problem, change } = useChange(reload, onUnauthorized);
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
      <h1 id="keys-title">License keys</h1>
      <form className="filters" onSubmit={create}>
        <label htmlFor="key-label">Label of a new key</label>
        <input id="key-label" value={label} onChange={(event) => setLabel(event.target.value)} placeholder="web servers" maxLength={255} />
        <button type="submit">Create key</button>
      </form>
      {shown && (
        <div className="shown-once" role="status">
          <p>New key for <strong>{shown.label}</strong>. Copy it now: it is shown only this once.</p>
          <output className="mono" aria-label="New license key">{shown.key}</output>
          <button type="button" onClick={() => setShown(undefined)}>Done</button>
        </div>
      )}
      {problem && <p className="error" role="alert">{problem}</p>}
      <Status loaded={keys} />
      {keys.state === 'ready' && (
        <table>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Prefix</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last upload</th>
              <th scope="col" className="number">New hosts a day</th>
              <th scope="col" className="number">Most hosts</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.value.items.map((key) => (
              <tr key={key.id}>
                <td>{key.label ?? '—'}</td>
                <td className="mono">{key.prefix}…</td>
                <td>{key.state}</td>
                <td>{formatTime(key.createdAt)}</td>
                <td>{key.expiresAt ? formatTime(key.expiresAt) : 'never'}</td>
                <td>{formatTime(key.lastUploadAt)}</td>
                <td className="number">{key.newHostsPerDay ?? 'server default'}</td>
                <td className="number">{key.maxHosts ?? 'no maximum'}</td>
                <td>
                  <KeyQuotas
                    keyInfo={key}
                    onSave={(settings) => void change(async () => void (await data(updateLicenseKey({ client, path: { keyId: key.id }, body: settings }))))}
                  />
                  {key.state === 'valid' && (
                    <div className="actions">
                      <button
                        type="button"
                        onClick={() => confirm(`Rotate the key "${key.label ?? key.id}"? The old key keeps working for a day.`) &&
                          void change(async () => {
                            const rotated = await data(rotateLicenseKey({ client, path: { keyId: key.id }, body: {} }));
                            setShown({ label: rotated.key.label ?? rotated.key.id, key: rotated.licenseKey });
                          })}
                      >
                        Rotate
                      </button>
                      <button
                        type="button"
                        onClick={() => confirm(`Revoke the key "${key.label ?? key.id}"? Its hosts' uploads are refused from now on.`) &&
                          void change(async () => void (await data(revokeLicenseKey({ client, path: { keyId: key.id } }))))}
                      >
                        Revoke
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
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
        <input id={`per-day-${keyInfo.id}`} type="number" min={0} max={100_000_000} value={perDay} onChange={(event) => setPerDay(event.target.value)} aria-label={`New hosts a day for ${name}`} />
        <label htmlFor={`most-${keyInfo.id}`}>Most hosts (blank: no maximum)</label>
        <input id={`most-${keyInfo.id}`} type="number" min={0} max={100_000_000} value={most} onChange={(event) => setMost(event.target.value)} aria-label={`Most hosts for ${name}`} />
        <button type="submit">Save quotas</button>
      </form>
    </details>
  );
}
