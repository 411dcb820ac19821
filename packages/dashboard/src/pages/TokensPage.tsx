import { useContext, useState, type FormEvent, type ReactNode } from 'react';
import {
  ADMIN_ROLES,
  createMyToken,
  createServiceToken,
  listAdminTokens,
  listMyTokens,
  revokeAdminToken,
  revokeMyToken,
  type AdminRole,
  type AdminTokenInfo,
  type Client,
  type NewAdminToken,
} from '@org/audit-client/sdk';
import { data } from '../api.js';
import { dateInputValue, startOfLocalDay } from '../date-input.js';
import { RoleContext, useCan } from '../permissions.js';
import { scopeFromFields, scopeText } from '../scope-text.js';
import { useChange, type Change } from '../use-change.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { CopyButton } from '../components/CopyButton.js';
import { LoadedTable, type Column } from '../components/Table.js';
import { When } from '../components/When.js';

/**
 * API tokens: everyone signed in manages their own personal tokens (at most their role, within their scope); an
 * admin also sees every token and creates service accounts' tokens. A new token is shown once, with a copy button.
 */
export function TokensPage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [shown, setShown] = useState<NewAdminToken>();
  const [round, setRound] = useState(0);
  const reloadBoth = () => setRound((n) => n + 1);
  const { problem, change } = useChange(reloadBoth, onUnauthorized);
  const mayListAll = useCan('listAdminTokens');
  const props = { client, change, round, onUnauthorized, onCreated: setShown };
  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title" tabIndex={-1}>
        API tokens
      </h1>
      {shown && (
        <div className="shown-once" role="status">
          <p>
            New token <strong>{shown.token.label ?? shown.token.serviceAccount ?? shown.token.id}</strong> ({shown.token.role}). Copy it now: it is shown only
            this once.
          </p>
          <output className="mono" aria-label="New API token">
            {shown.adminToken}
          </output>{' '}
          <CopyButton text={shown.adminToken} label="Copy the new token" />{' '}
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
      <MyTokens {...props} />
      {mayListAll && <AllTokens {...props} />}
    </section>
  );
}

interface SectionProps {
  client: Client;
  change: Change;
  /** Rises with every change, so that both lists are read again. */
  round: number;
  onUnauthorized(): void;
  onCreated(created: NewAdminToken): void;
}

/** The signed-in person's own tokens; a tab signed in with a token has none (the server answers so). */
function MyTokens({ client, change, round, onUnauthorized, onCreated }: SectionProps) {
  const [tokens] = useLoad(() => data(listMyTokens({ client })), `mine ${round}`, onUnauthorized);
  const myRole = useContext(RoleContext);
  const revoke = (token: AdminTokenInfo) =>
    confirm(`Revoke your token "${token.label ?? token.prefix}"? Scripts using it are refused from now on.`) &&
    void change(async () => void (await data(revokeMyToken({ client, path: { tokenId: token.id } }))));
  return (
    <section aria-labelledby="my-tokens-title">
      <h2 id="my-tokens-title">Your tokens</h2>
      <p>A personal token acts as you: never above your role, within your scope; it stops when your account is disabled.</p>
      {tokens.state === 'ready' && (
        <details>
          <summary>Create a personal token</summary>
          <TokenForm
            idPrefix="my-token"
            roles={ADMIN_ROLES.slice(0, myRole ? ADMIN_ROLES.indexOf(myRole) + 1 : 1)}
            submit="Create personal token"
            onSubmit={(fields) =>
              change(async () =>
                onCreated(await data(createMyToken({ client, body: { label: fields.label, role: fields.role, expiresAt: fields.expiresAt } }))),
              )
            }
          />
        </details>
      )}
      <LoadedTable
        loaded={mapLoaded(tokens, (list) => list.items)}
        columns={tokenColumns(false, revoke)}
        rowKey={(token) => token.id}
        caption="Your personal tokens, newest first"
      />
    </section>
  );
}

/** Every token (admin): personal and service accounts'; service tokens made here. */
function AllTokens({ client, change, round, onUnauthorized, onCreated }: SectionProps) {
  const [tokens] = useLoad(() => data(listAdminTokens({ client })), `all ${round}`, onUnauthorized);
  const mayCreate = useCan('createServiceToken');
  const mayRevoke = useCan('revokeAdminToken');
  const revoke = (token: AdminTokenInfo) =>
    confirm(`Revoke the token "${token.label ?? token.prefix}" of ${ownerOf(token)}? It is refused from now on.`) &&
    void change(async () => void (await data(revokeAdminToken({ client, path: { tokenId: token.id } }))));
  return (
    <section aria-labelledby="all-tokens-title">
      <h2 id="all-tokens-title">All tokens</h2>
      {mayCreate && (
        <details>
          <summary>Create a service account token</summary>
          <TokenForm
            idPrefix="service-token"
            roles={ADMIN_ROLES}
            service
            submit="Create service token"
            onSubmit={(fields) =>
              change(async () =>
                onCreated(
                  await data(
                    createServiceToken({
                      client,
                      body: {
                        serviceAccount: fields.serviceAccount,
                        label: fields.label || undefined,
                        role: fields.role,
                        scope: fields.scope,
                        expiresAt: fields.expiresAt,
                      },
                    }),
                  ),
                ),
              )
            }
          />
        </details>
      )}
      <LoadedTable
        loaded={mapLoaded(tokens, (list) => list.items)}
        columns={tokenColumns(true, mayRevoke ? revoke : undefined)}
        rowKey={(token) => token.id}
        caption="Every API token, oldest first"
      />
    </section>
  );
}

/** Who a token belongs to: its owner's email or its service account's name. */
const ownerOf = (token: AdminTokenInfo) =>
  token.kind === 'personal' ? (token.owner?.email ?? 'a deleted person') : `service account ${token.serviceAccount ?? '—'}`;

function tokenColumns(withOwner: boolean, revoke: ((token: AdminTokenInfo) => void) | undefined): Column<AdminTokenInfo>[] {
  const columns: (Column<AdminTokenInfo> | false)[] = [
    { header: 'Label', cellClassName: 'words', cell: (token) => token.label ?? '—' },
    withOwner && { header: 'Kind', cellClassName: 'nowrap', cell: (token) => token.kind },
    withOwner && {
      header: 'Owner or account',
      cellClassName: 'words',
      cell: (token) => (token.kind === 'personal' ? (token.owner?.email ?? '—') : (token.serviceAccount ?? '—')),
    },
    { header: 'Role', cellClassName: 'nowrap', cell: (token) => token.role },
    { header: 'Scope', cellClassName: 'words', cell: (token) => scopeText(token.scope) },
    { header: 'Prefix', cellClassName: 'mono nowrap', cell: (token) => `${token.prefix}…` },
    { header: 'Created', cell: (token) => <When time={token.createdAt} /> },
    { header: 'Last used', cell: (token) => (token.lastUsedAt ? <When time={token.lastUsedAt} /> : 'never') },
    { header: 'Expires', cell: (token) => (token.expiresAt ? <When time={token.expiresAt} /> : 'never') },
    {
      header: 'Revoked',
      cell: (token): ReactNode =>
        token.revokedAt ? (
          <When time={token.revokedAt} />
        ) : revoke ? (
          <button type="button" onClick={() => revoke(token)} aria-label={`Revoke ${token.label ?? token.prefix}`}>
            Revoke
          </button>
        ) : (
          'no'
        ),
    },
  ];
  return columns.filter((column): column is Column<AdminTokenInfo> => column !== false);
}

/** What the token forms give: a service account only for service tokens, a scope only there too. */
interface TokenFields {
  label: string;
  serviceAccount: string;
  role: AdminRole;
  scope: { customers: string[]; groups: string[] };
  expiresAt: string | null;
}

/** The first day a new token may expire on, as a date input's value: tomorrow, local time. */
function firstExpiryDay(): string {
  const now = new Date();
  return dateInputValue(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));
}

/** A new token's label, role and expiry; for a service token also the account's name and a scope. */
function TokenForm({
  idPrefix,
  roles,
  service = false,
  submit,
  onSubmit,
}: {
  idPrefix: string;
  roles: readonly AdminRole[];
  service?: boolean;
  submit: string;
  onSubmit(fields: TokenFields): Promise<void>;
}) {
  const [label, setLabel] = useState('');
  const [serviceAccount, setServiceAccount] = useState('');
  const [role, setRole] = useState<AdminRole>(roles.at(-1) ?? 'viewer');
  const [customers, setCustomers] = useState('');
  const [groups, setGroups] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const send = (event: FormEvent) => {
    event.preventDefault();
    const fields = {
      label: label.trim(),
      serviceAccount: serviceAccount.trim(),
      role,
      scope: scopeFromFields(customers, groups),
      expiresAt: expiresOn ? startOfLocalDay(expiresOn) : null,
    };
    void onSubmit(fields).then(() => {
      setLabel('');
      setServiceAccount('');
      setExpiresOn('');
    });
  };
  return (
    <form className="filters" onSubmit={send}>
      {service && (
        <>
          <label htmlFor={`${idPrefix}-account`}>Service account</label>
          <input
            id={`${idPrefix}-account`}
            required
            maxLength={255}
            value={serviceAccount}
            onChange={(event) => setServiceAccount(event.target.value)}
            placeholder="siem"
          />
        </>
      )}
      <label htmlFor={`${idPrefix}-label`}>Label{service ? ' (optional)' : ''}</label>
      <input
        id={`${idPrefix}-label`}
        required={!service}
        maxLength={255}
        value={label}
        onChange={(event) => setLabel(event.target.value)}
        placeholder="nightly export"
      />
      <label htmlFor={`${idPrefix}-role`}>Role</label>
      <select id={`${idPrefix}-role`} value={role} onChange={(event) => setRole(event.target.value as AdminRole)}>
        {roles.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
      {service && (
        <>
          <label htmlFor={`${idPrefix}-customers`}>Only customers (comma-separated; blank: all)</label>
          <input id={`${idPrefix}-customers`} value={customers} onChange={(event) => setCustomers(event.target.value)} />
          <label htmlFor={`${idPrefix}-groups`}>Only groups (comma-separated; blank: all)</label>
          <input id={`${idPrefix}-groups`} value={groups} onChange={(event) => setGroups(event.target.value)} />
        </>
      )}
      <label htmlFor={`${idPrefix}-expires`}>Expires on (local time; blank: never)</label>
      <input id={`${idPrefix}-expires`} type="date" min={firstExpiryDay()} value={expiresOn} onChange={(event) => setExpiresOn(event.target.value)} />
      <button type="submit">{submit}</button>
    </form>
  );
}
