import type { ParsedLynisReport } from '@org/audit-server-core';

/**
 * Lynis' list keys (`key[]=` lines, from its include/ scripts). A rule over one the report lacks sees an empty
 * list instead of an error, so `size(report.vulnerable_package) == 0` passes on a host without vulnerable packages.
 */
const LYNIS_LIST_KEYS = `account_password_expired account_without_password apache_module apache_vhost_name app_fw audit_trail_tool
auth_failed_logins_tooling auth_groups_nonunique automation_tool_installed automation_tool_running available_shell available_update
bad_fileowner_cronjob banner_os_disclosure banner_software_disclosure boot_service boottask certificate compiler_world_executable cronjob
default_gateway deleted_file details encrypted_swap encryption exception_event fail2ban_enabled_service file_integrity_tool
file_systems_ext file_systems_xfs filesystem firewall_no_logging firewall_software home_directory ids_ips_tooling imap_daemon
insecure_fileperms_cronjob insecure_service ldap_server linux_kernel_io_scheduler loaded_kernel_module locked_account log_directory logfile
lvm_volume lvm_volume_group malware_scanner manual manual_event mountpoint_hammer mountpoint_ufs mountpoint_zfs nameserver network_interface
network_ipv4_address network_ipv6_address network_listen network_listen_port network_mac_address nginx_config nginx_config_option
nginx_header nginx_sub_conf_file non_encrypted_swap ntp_config_file ntp_falseticker ntp_stratum_16_peer ntp_unreliable_peer
open_empty_log_file package_manager package_repository pacman_option pam_module pop3_daemon postgresql_config_file real_user
resolv_conf_option resolv_conf_search_domain running_service scheduler session_timeout_method session_timeout_value slow_test smtp_daemon
software_repository_unsigned solaris_running_zone ssl_tls_protocol_enabled suggestion swap_partition syslog_daemon system_group
system_integrity_tool unattended_upgrade_tool unknown_config_option upgrade_available usb_authorized_default_device usb_authorized_device
user_with_uid_zero vulnerable_package warning weak_banner_file`.split(/\s+/);

const ARRAY_SUFFIX = '[]';
const PACKAGES_KEY = 'installed_packages_array';

/** What a rule knows of the host besides its report. */
export interface HostFacts {
  hostname: string | null;
  hostId: string;
  keyId: string;
  groups: string[];
  tags: string[];
  lastSeen: Date;
}

/**
 * The variables a rule sees for one host: `summary` (the contract's `ReportSummary`, integers as CEL ints),
 * `report` (every key; `key[]` lines as a list under `key`; `installed_packages_array` as a map of package to
 * version), `host` and `now`. Values are plain data: a report's key named `__proto__` or `constructor` is an
 * ordinary entry of a `Map`, never a property lookup.
 */
export function ruleVariables(parsed: ParsedLynisReport, host: HostFacts, now: Date) {
  const report = new Map<string, unknown>(LYNIS_LIST_KEYS.map((key) => [key, []]));
  for (const [key, value] of Object.entries(parsed.values)) {
    if (key.endsWith(ARRAY_SUFFIX)) report.set(key.slice(0, -ARRAY_SUFFIX.length), value);
    else if (key === PACKAGES_KEY && typeof value === 'string') report.set(key, packageVersions(value));
    else report.set(key, value);
  }
  return { summary: withIntegers(parsed.summary), report, host: { ...host }, now };
}

/** `|name,version|name,version|` as a map of name to version. */
function packageVersions(list: string): Map<string, string> {
  const versions = new Map<string, string>();
  for (const entry of list.split('|')) {
    const comma = entry.indexOf(',');
    if (comma > 0) versions.set(entry.slice(0, comma), entry.slice(comma + 1));
  }
  return versions;
}

/** A copy with every integer a CEL int (a `bigint`): JavaScript numbers are CEL doubles, and `60` in a rule is an int. */
function withIntegers(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (Array.isArray(value)) return value.map(withIntegers);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withIntegers(item)]));
  return value;
}
