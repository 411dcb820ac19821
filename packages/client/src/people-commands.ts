// The admin commands of people and their API tokens: the people findings can be given to (people), accounts
// (users), every token (tokens, for admins) and the signed-in person's own (my-tokens).
import { Command, Option } from 'commander';
import type { AccessScope, AdminRole, AdminTokenInfo, NewAdminToken, Person, User } from './generated/types.gen.js';
import { admin, adminCommand, deleted, printJson, show, type OutputFlags } from './admin-command-base.js';
import { formatTable, formatTime, printable } from './admin-output.js';
import { dateTime, recordId } from './cli-arguments.js';
import { EXIT } from './cli-exit-codes.js';
import { processSources, UsageError } from './cli-settings.js';

const ROLES: AdminRole[] = ['viewer', 'operator', 'admin'];

/** The repeatable flags of a scope. */
interface ScopeFlags {
  customer?: string[];
  group?: string[];
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const roleOption = (description: string) => new Option('--role <role>', description).choices(ROLES);

/** Adds `--customer` and `--group`, each repeatable, to a command. */
const withScopeOptions = (command: Command, what: string) =>
  command
    .option('--customer <name>', `${what} only hosts of this customer (system-customer-name=); repeatable`, collect)
    .option('--group <name>', `${what} only hosts of this system group; repeatable`, collect);

/** The scope the flags give: none given is every host. */
const scopeOf = (flags: ScopeFlags): AccessScope => ({ customers: flags.customer ?? [], groups: flags.group ?? [] });

/** A scope in one cell: `customers:a,b groups:c`, or `all hosts`. */
export function scopeText(scope: AccessScope): string {
  const parts = [scope.customers.length > 0 ? `customers:${scope.customers.join(',')}` : '', scope.groups.length > 0 ? `groups:${scope.groups.join(',')}` : ''];
  return parts.filter((part) => part !== '').join(' ') || 'all hosts';
}

/** `audit-client users list`. */
export const formatUsers = (users: User[]) =>
  users.length === 0
    ? 'No users.\n'
    : formatTable<User>(
        [
          ['ID', (u) => u.id],
          ['EMAIL', (u) => u.email],
          ['NAME', (u) => u.displayName],
          ['ROLE', (u) => u.role],
          ['SCOPE', (u) => scopeText(u.scope)],
          ['SIGN-IN', (u) => u.signIn.join(',') || 'none'],
          ['STATE', (u) => (u.disabled ? 'disabled' : 'active')],
          ['LAST SIGN-IN', (u) => (u.lastSignInAt === null ? 'never' : formatTime(u.lastSignInAt))],
        ],
        users,
      );

/** `audit-client people`: whose ids `findings acknowledge --owner` and `findings accept --approver` take. */
export const formatPeople = (people: Person[]) =>
  people.length === 0
    ? 'No people.\n'
    : formatTable<Person>(
        [
          ['ID', (p) => p.id],
          ['EMAIL', (p) => p.email],
          ['NAME', (p) => p.name],
        ],
        people,
      );

/** `audit-client tokens list` and `my-tokens list`: never a token itself. */
export const formatTokens = (tokens: AdminTokenInfo[]) =>
  tokens.length === 0
    ? 'No tokens.\n'
    : formatTable<AdminTokenInfo>(
        [
          ['ID', (t) => t.id],
          ['KIND', (t) => t.kind],
          ['OWNER/ACCOUNT', (t) => (t.kind === 'personal' ? (t.owner?.email ?? null) : t.serviceAccount)],
          ['LABEL', (t) => t.label],
          ['ROLE', (t) => t.role],
          ['SCOPE', (t) => scopeText(t.scope)],
          ['PREFIX', (t) => t.prefix],
          ['CREATED', (t) => formatTime(t.createdAt)],
          ['LAST USED', (t) => (t.lastUsedAt === null ? 'never' : formatTime(t.lastUsedAt))],
          ['EXPIRES', (t) => (t.expiresAt === null ? 'never' : formatTime(t.expiresAt))],
          ['REVOKED', (t) => formatTime(t.revokedAt)],
        ],
        tokens,
      );

/** A new token: its id on stderr, the token itself (shown this once) alone on stdout, so that it can be piped. */
function printNewToken(options: OutputFlags, created: NewAdminToken): number {
  if (options.json) return printJson(created);
  process.stderr.write(`Created ${created.token.kind} token ${created.token.id} (${created.token.role}); the token, shown only now:\n`);
  process.stdout.write(`${created.adminToken}\n`);
  return EXIT.ok;
}

/** Adds `people`, `users`, `tokens` and `my-tokens` to `audit-client`. */
export function addPeopleCommands(program: Command): void {
  adminCommand(program, 'people', "list the enabled people by email: the ids a finding's owner and approver are given by (operator)").action(
    admin<[OutputFlags]>(async (client, options) => show(options, (await client.listPeople()).items, formatPeople)),
  );
  addUserCommands(program);
  addTokenCommands(program);
  addMyTokenCommands(program);
}

/** `users`: people's accounts (admin). */
function addUserCommands(program: Command): void {
  const users = program.command('users').description("people's accounts: role, scope, sign-in (admin)");
  adminCommand(users, 'list', 'list accounts: email, name, role, scope, how they sign in, state, last sign-in').action(
    admin<[OutputFlags]>(async (client, options) => show(options, (await client.listUsers()).items, formatUsers)),
  );
  withScopeOptions(
    adminCommand(users, 'add', 'add a person; with --password-stdin they sign in with a password, without one through single sign-on only')
      .requiredOption('--email <email>', 'the email the person signs in with')
      .addOption(roleOption('what the person may do').makeOptionMandatory())
      .option('--name <name>', 'the name shown for the person')
      .option('--password-stdin', 'read the password (at least 12 characters) from stdin; never given on the command line'),
    'let the person see',
  ).action(
    admin<[OutputFlags & ScopeFlags & { email: string; role: AdminRole; name?: string; passwordStdin?: boolean }]>(async (client, options) => {
      const password = options.passwordStdin ? (await processSources.readStdin()).replace(/\r?\n$/, '') : undefined;
      if (password === '') throw new UsageError('No password on stdin: pipe it in with --password-stdin');
      const user = await client.createUser({ email: options.email, role: options.role, displayName: options.name, password, scope: scopeOf(options) });
      if (options.json) return printJson(user);
      process.stderr.write(`Added user ${printable(user.email)} (${user.role})\n`);
      process.stdout.write(`${user.id}\n`);
      return EXIT.ok;
    }),
  );
  withScopeOptions(
    adminCommand(users, 'update', "change a person's name, role or scope, or disable or enable the account; what is not given stays")
      .argument('<user-id>', "the account's id, from users list", recordId)
      .option('--name <name>', 'a new name shown for the person')
      .addOption(roleOption('a new role'))
      .option('--all-hosts', 'remove the scope: the person sees every host')
      .addOption(new Option('--disable', 'the person can no longer sign in; sessions and personal tokens stop').conflicts('enable'))
      .option('--enable', 'let a disabled person sign in again'),
    'let the person see (replacing the scope)',
  ).action(
    admin<[string, OutputFlags & ScopeFlags & { name?: string; role?: AdminRole; allHosts?: boolean; disable?: boolean; enable?: boolean }]>(
      async (client, userId, options) => {
        const scoped = options.customer !== undefined || options.group !== undefined;
        if (scoped && options.allHosts) throw new UsageError('Give --customer/--group or --all-hosts, not both');
        const change = {
          ...(options.name === undefined ? {} : { displayName: options.name }),
          ...(options.role === undefined ? {} : { role: options.role }),
          ...(scoped || options.allHosts ? { scope: scopeOf(options) } : {}),
          ...(options.disable ? { disabled: true } : options.enable ? { disabled: false } : {}),
        };
        if (Object.keys(change).length === 0)
          throw new UsageError('Nothing to change: give --name, --role, --customer, --group, --all-hosts, --disable or --enable');
        return show(options, await client.updateUser(userId, change), (user) => formatUsers([user]));
      },
    ),
  );
  adminCommand(users, 'delete', 'delete an account with its sessions and personal tokens')
    .argument('<user-id>', "the account's id, from users list", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, userId, options) => {
        await client.deleteUser(userId);
        return deleted(options, 'user', userId);
      }),
    );
}

/** Adds `--label` and `--expires`, which every new token takes. */
const withTokenOptions = (command: Command) =>
  command.option('--label <label>', 'what the token is for').option('--expires <date>', 'when it stops working, e.g. 2027-11-01 (default: never)', dateTime);

/** `tokens`: every API token (admin). */
function addTokenCommands(program: Command): void {
  const tokens = program.command('tokens').description("every API token, personal and service accounts' (admin)");
  adminCommand(tokens, 'list', 'list tokens: kind, owner or service account, role, scope, created, last used, expiry, revocation').action(
    admin<[OutputFlags]>(async (client, options) => show(options, (await client.listAdminTokens()).items, formatTokens)),
  );
  withScopeOptions(
    withTokenOptions(
      adminCommand(tokens, 'create-service', "create a service account's token and print it: it cannot be shown again")
        .requiredOption('--service-account <name>', 'the service account that uses it, e.g. siem')
        .addOption(roleOption('what the token may do').makeOptionMandatory()),
    ),
    'let the token see',
  ).action(
    admin<[OutputFlags & ScopeFlags & { serviceAccount: string; role: AdminRole; label?: string; expires?: string }]>(async (client, options) =>
      printNewToken(
        options,
        await client.createServiceToken({
          serviceAccount: options.serviceAccount,
          role: options.role,
          label: options.label,
          expiresAt: options.expires ?? null,
          scope: scopeOf(options),
        }),
      ),
    ),
  );
  adminCommand(tokens, 'revoke', 'revoke any token: refused from its next request on')
    .argument('<token-id>', "the token's id, from tokens list", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, tokenId, options) => {
        await client.revokeAdminToken(tokenId);
        return revoked(options, tokenId);
      }),
    );
}

/** `my-tokens`: the personal tokens of the person signed in (the API answers 409 to a token). */
function addMyTokenCommands(program: Command): void {
  const mine = program.command('my-tokens').description('your own personal tokens (needs a signed-in session: a token gets 409)');
  adminCommand(mine, 'list', 'list your personal tokens, newest first').action(
    admin<[OutputFlags]>(async (client, options) => show(options, (await client.listMyTokens()).items, formatTokens)),
  );
  withTokenOptions(
    adminCommand(mine, 'create', 'create a personal token (at most your role, your scope) and print it: it cannot be shown again').addOption(
      roleOption('what the token may do, at most your role (default: yours)'),
    ),
  ).action(
    admin<[OutputFlags & { label?: string; role?: AdminRole; expires?: string }]>(async (client, options) => {
      if (options.label === undefined) throw new UsageError('give the token a --label: what it is for');
      return printNewToken(options, await client.createMyToken({ label: options.label, role: options.role, expiresAt: options.expires ?? null }));
    }),
  );
  adminCommand(mine, 'revoke', 'revoke one of your personal tokens')
    .argument('<token-id>', "the token's id, from my-tokens list", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, tokenId, options) => {
        await client.revokeMyToken(tokenId);
        return revoked(options, tokenId);
      }),
    );
}

/** What a revoke command says: a line on stderr, or `{"id", "revoked": true}` with `--json`. */
function revoked(options: OutputFlags, tokenId: string): number {
  if (options.json) return printJson({ id: tokenId, revoked: true });
  process.stderr.write(`Revoked token ${tokenId}\n`);
  return EXIT.ok;
}
