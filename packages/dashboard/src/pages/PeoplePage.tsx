import { useState, type FormEvent, type ReactNode } from 'react';
import { ADMIN_ROLES, createUser, deleteUser, listUsers, updateUser, type AdminRole, type Client, type User, type UserChange } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { useCan } from '../permissions.js';
import { scopeFromFields, scopeText } from '../scope-text.js';
import { useChange, type Change } from '../use-change.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { LoadedTable, type Column } from '../components/Table.js';
import { When } from '../components/When.js';

/**
 * People (admin): every account with its role, scope, how it signs in and when it last did; add a person (with a
 * password, or for single sign-on only) and change a role or scope, disable, enable or delete, each confirmed.
 */
export function PeoplePage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [users, reload] = useLoad(() => data(listUsers({ client })), 'users', onUnauthorized);
  const { problem, change } = useChange(reload, onUnauthorized);
  const mayCreate = useCan('createUser');
  const mayUpdate = useCan('updateUser');
  const mayDelete = useCan('deleteUser');
  const actions = (user: User) => <PersonActions user={user} client={client} change={change} mayUpdate={mayUpdate} mayDelete={mayDelete} />;
  return (
    <section aria-labelledby="people-title">
      <h1 id="people-title" tabIndex={-1}>
        People
      </h1>
      {mayCreate && <NewPersonForm client={client} change={change} />}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <LoadedTable
        loaded={mapLoaded(users, (list) => list.items)}
        columns={columns(actions)}
        rowKey={(user) => user.id}
        caption="Everyone who may sign in, by email"
      />
    </section>
  );
}

function columns(actions: (user: User) => ReactNode): Column<User>[] {
  return [
    { header: 'Email', cellClassName: 'words', cell: (user) => user.email },
    { header: 'Name', cellClassName: 'words', cell: (user) => user.displayName ?? '—' },
    { header: 'Role', cellClassName: 'nowrap', cell: (user) => user.role },
    { header: 'Scope', cellClassName: 'words', cell: (user) => scopeText(user.scope) },
    {
      header: 'Signs in with',
      cell: (user) => (user.signIn.length > 0 ? user.signIn.map((method) => (method === 'sso' ? 'SSO' : 'password')).join(', ') : 'nothing yet'),
    },
    { header: 'State', cell: (user) => (user.disabled ? 'disabled' : 'active') },
    { header: 'Last sign-in', cell: (user) => (user.lastSignInAt ? <When time={user.lastSignInAt} /> : 'never') },
    { header: 'Actions', cell: actions },
  ];
}

/** A role picker. */
function RoleSelect({ id, value, onChange, label }: { id: string; value: AdminRole; onChange(role: AdminRole): void; label?: string }) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value as AdminRole)} aria-label={label}>
      {ADMIN_ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}

/** Adding a person: email, name, role, a password (blank: single sign-on only) and a scope. */
function NewPersonForm({ client, change }: { client: Client; change: Change }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<AdminRole>('viewer');
  const [password, setPassword] = useState('');
  const [customers, setCustomers] = useState('');
  const [groups, setGroups] = useState('');
  const add = (event: FormEvent) => {
    event.preventDefault();
    void change(async () => {
      const body = {
        email: email.trim(),
        role,
        scope: scopeFromFields(customers, groups),
        ...(name.trim() ? { displayName: name.trim() } : {}),
        ...(password ? { password } : {}),
      };
      await data(createUser({ client, body }));
      setEmail('');
      setName('');
      setPassword('');
      setCustomers('');
      setGroups('');
    });
  };
  return (
    <details>
      <summary>Add a person</summary>
      <form className="filters" onSubmit={add}>
        <label htmlFor="person-email">Email</label>
        <input id="person-email" type="email" required maxLength={254} value={email} onChange={(event) => setEmail(event.target.value)} />
        <label htmlFor="person-name">Name</label>
        <input id="person-name" maxLength={255} value={name} onChange={(event) => setName(event.target.value)} />
        <label htmlFor="person-role">Role</label>
        <RoleSelect id="person-role" value={role} onChange={setRole} />
        <label htmlFor="person-password">Password (at least 12 characters; blank: single sign-on only)</label>
        <input
          id="person-password"
          type="password"
          autoComplete="new-password"
          minLength={12}
          maxLength={1024}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <label htmlFor="person-customers">Only customers (comma-separated; blank: all)</label>
        <input id="person-customers" value={customers} onChange={(event) => setCustomers(event.target.value)} placeholder="acme" />
        <label htmlFor="person-groups">Only groups (comma-separated; blank: all)</label>
        <input id="person-groups" value={groups} onChange={(event) => setGroups(event.target.value)} placeholder="web" />
        <button type="submit">Add person</button>
      </form>
    </details>
  );
}

/** A person's role and scope (changed in place), and the buttons that disable, enable or delete the account, each confirmed. */
function PersonActions({ user, client, change, mayUpdate, mayDelete }: { user: User; client: Client; change: Change; mayUpdate: boolean; mayDelete: boolean }) {
  const update = (body: UserChange) => change(async () => void (await data(updateUser({ client, path: { userId: user.id }, body }))));
  return (
    <>
      {mayUpdate && <AccessForm user={user} onSave={(body) => void update(body)} />}
      <div className="actions">
        {mayUpdate && (
          <button
            type="button"
            onClick={() =>
              confirm(
                user.disabled
                  ? `Enable ${user.email} again? They can sign in, and their personal tokens work again.`
                  : `Disable ${user.email}? Their sessions end and their personal tokens stop working.`,
              ) && void update({ disabled: !user.disabled })
            }
          >
            {user.disabled ? 'Enable' : 'Disable'}
          </button>
        )}
        {mayDelete && (
          <button
            type="button"
            onClick={() =>
              confirm(`Delete the account of ${user.email}? Their sessions and personal tokens go with it.`) &&
              void change(async () => void (await data(deleteUser({ client, path: { userId: user.id } }))))
            }
          >
            Delete
          </button>
        )}
      </div>
    </>
  );
}

/** A person's role and scope, changed together once confirmed (their sessions end). */
function AccessForm({ user, onSave }: { user: User; onSave(change: UserChange): void }) {
  const [role, setRole] = useState<AdminRole>(user.role);
  const [customers, setCustomers] = useState(user.scope.customers.join(', '));
  const [groups, setGroups] = useState(user.scope.groups.join(', '));
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (confirm(`Give ${user.email} the ${role} role and this scope? Their sessions end; they sign in again.`)) {
      onSave({ role, scope: scopeFromFields(customers, groups) });
    }
  };
  return (
    <details>
      <summary>Role and scope</summary>
      <form onSubmit={save}>
        <label htmlFor={`role-${user.id}`}>Role</label>
        <RoleSelect id={`role-${user.id}`} value={role} onChange={setRole} label={`Role of ${user.email}`} />
        <label htmlFor={`customers-${user.id}`}>Only customers (comma-separated; blank: all)</label>
        <input id={`customers-${user.id}`} value={customers} onChange={(event) => setCustomers(event.target.value)} />
        <label htmlFor={`groups-${user.id}`}>Only groups (comma-separated; blank: all)</label>
        <input id={`groups-${user.id}`} value={groups} onChange={(event) => setGroups(event.target.value)} />
        <button type="submit">Save role and scope</button>
      </form>
    </details>
  );
}
