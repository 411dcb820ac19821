/** Field names whose values are secrets, compared lowercased: such a field is dropped wholesale, whatever it holds. */
const SECRET_NAMES = new Set(['password', 'secret', 'licensekey', 'admintoken', 'token', 'key', 'sessionid', 'cookie', 'authorization']);

const isSecretName = (name: string) => {
  const lower = name.toLowerCase();
  return SECRET_NAMES.has(lower) || lower.includes('password') || lower.includes('secret');
};

/**
 * `value` without any field named like a secret (password, secret, licenseKey, adminToken, token, …), at any depth:
 * what reaches the audit trail, which must never hold one.
 */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([name, field]) => (isSecretName(name) ? [] : [[name, withoutSecrets(field)]])));
}
