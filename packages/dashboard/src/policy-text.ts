import type { LicenseKeyInfo, Policy, PolicyInput } from '@org/audit-client/sdk';

/** A policy as its input again (to save it with one thing changed, such as enabled). */
export function policyInputOf(policy: Policy): PolicyInput {
  return {
    name: policy.name,
    description: policy.description,
    enabled: policy.enabled,
    scope: policy.scope,
    // Its controls kept, so that saving the policy with one thing changed does not drop them.
    rules: policy.rules.map(({ id, description, controls, expression }) => ({ id, description, ...(controls === undefined ? {} : { controls }), expression })),
  };
}

/** A policy's scope in words: "group web, host names web-*", or "every host"; a key by its label when it is known. */
export function scopeText(policy: Pick<Policy, 'scope'>, keys: Pick<LicenseKeyInfo, 'id' | 'label' | 'prefix'>[] = []): string {
  const { keyId, group, tag, hostname } = policy.scope;
  const key = keys.find((known) => known.id === keyId);
  const keyText = key ? `key ${key.label ?? '(no label)'} (${key.prefix}…)` : keyId && `key ${keyId}`;
  const parts = [keyText, group && `group ${group}`, tag && `tag ${tag}`, hostname && `host names ${hostname}`].filter(Boolean);
  return parts.length === 0 ? 'every host' : parts.join(', ');
}

/** What deleting a policy asks first: it takes its results and waivers with it. */
export const deleteQuestion = (policy: Pick<Policy, 'name'>) => `Delete the policy ${policy.name} with its results and waivers?`;
