/**
 * The enroll script's body, the same for every enrollment: POSIX sh, checked with shellcheck by the tests. It reads
 * the settings the header (see `enroll-script.ts`) assigns: COLLECTOR, LICENSE_KEY, SYSTEM_GROUPS, TAGS, CUSTOMER,
 * DASHBOARD_URL and CERTIFICATE (empty where the server runs plain HTTP). Written without `${…}` and backquotes, so
 * that it reads here exactly as the shell reads it.
 */
export const ENROLL_SCRIPT_BODY = String.raw`
LYNIS_DIR=/etc/lynis
PROFILE="$LYNIS_DIR/custom.prf"
CERT_FILE="$LYNIS_DIR/audit-collector.pem"
STATE_FILE="$LYNIS_DIR/audit-collector-enrollment.state"
HOSTIDS_FILE="$LYNIS_DIR/hostids"
CRON_FILE=/etc/cron.d/audit-collector-lynis
UNIT_DIR=/etc/systemd/system
SERVICE=audit-collector-lynis.service
TIMER=audit-collector-lynis.timer
BEGIN_MARK='# BEGIN audit-collector enrollment'
END_MARK='# END audit-collector enrollment'

say() { printf '%s\n' "$*"; }
die() {
  printf 'enroll: %s\n' "$*" >&2
  exit 1
}

usage() {
  cat <<'USAGE'
Enrolls this host with the audit collector: installs Lynis when missing, points it at the collector (certificate,
license key, groups, tags and customer in a managed block of /etc/lynis/custom.prf), schedules a daily audit with
upload (a systemd timer, or a cron file without systemd) and runs the first audit. Run it again at will: it changes
only what differs.

  curl ... | sudo sh                      enroll and run the first audit
  curl ... | sudo sh -s -- --no-run       enroll, leave the first audit to the schedule
  curl ... | sudo sh -s -- --uninstall    remove what it added (Lynis stays installed)
  curl ... | sh -s -- --help              this text
USAGE
}

# The first package manager found, in the order apt-get, dnf, yum, zypper; fails when there is none.
package_manager() {
  for manager in apt-get dnf yum zypper; do
    if command -v "$manager" >/dev/null 2>&1; then
      say "$manager"
      return 0
    fi
  done
  return 1
}

install_lynis() {
  if command -v lynis >/dev/null 2>&1; then return 0; fi
  manager=$(package_manager) || die "Lynis is not installed and no apt-get, dnf, yum or zypper was found: install Lynis, then run this again"
  say "Installing Lynis with $manager"
  case "$manager" in
    apt-get) DEBIAN_FRONTEND=noninteractive apt-get install -y lynis || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y lynis; } ;;
    dnf) dnf install -y lynis ;;
    yum) yum install -y lynis ;;
    zypper) zypper --non-interactive install lynis ;;
  esac
  command -v lynis >/dev/null 2>&1 || die "$manager did not install Lynis: install it, then run this again"
}

# Writes standard input to $1, only when its content differs (an unchanged file keeps its mtime; returns 1). A new
# file gets mode $2 and appears whole; an existing one keeps its owner and mode.
write_if_changed() {
  target=$1
  temporary=$(mktemp "$(dirname "$target")/.audit-collector.XXXXXX")
  cat >"$temporary"
  if [ -f "$target" ] && cmp -s "$temporary" "$target"; then
    rm -f "$temporary"
    return 1
  fi
  if [ -f "$target" ]; then
    cat "$temporary" >"$target"
    rm -f "$temporary"
  else
    chmod "$2" "$temporary"
    mv -f "$temporary" "$target"
  fi
  say "Wrote $target"
}

# The profile without the managed block.
profile_without_block() {
  if [ -f "$PROFILE" ]; then
    awk -v begin="$BEGIN_MARK" -v end="$END_MARK" '$0 == begin { skip = 1; next } $0 == end { skip = 0; next } !skip' "$PROFILE"
  fi
}

managed_block() {
  say "$BEGIN_MARK"
  say "# Written by the audit collector's enroll script; run it with --uninstall to remove this block."
  say "upload=yes"
  say "upload-server=$COLLECTOR"
  say "license-key=$LICENSE_KEY"
  if [ -n "$CERTIFICATE" ]; then say "upload-options=--cacert $CERT_FILE"; fi
  if [ -n "$SYSTEM_GROUPS" ]; then say "system-groups=$SYSTEM_GROUPS"; fi
  if [ -n "$TAGS" ]; then say "tags=$TAGS"; fi
  if [ -n "$CUSTOMER" ]; then say "system-customer-name=$CUSTOMER"; fi
  say "$END_MARK"
}

# What this script created, as its state file lists it ("created hostids", "created custom.prf").
created_before() {
  [ -f "$STATE_FILE" ] && grep -qx "created $1" "$STATE_FILE"
}

lynis_command() { command -v lynis; }

schedule_with_systemd() {
  lynis_bin=$(lynis_command)
  changed=0
  write_if_changed "$UNIT_DIR/$SERVICE" 644 <<UNIT && changed=1
[Unit]
Description=Lynis audit with upload to the audit collector
Wants=network-online.target
After=network-online.target

[Service]
Type=oneshot
ExecStart=$lynis_bin audit system --cronjob --upload
UNIT
  write_if_changed "$UNIT_DIR/$TIMER" 644 <<'UNIT' && changed=1
[Unit]
Description=Daily Lynis audit with upload to the audit collector

[Timer]
OnCalendar=daily
RandomizedDelaySec=1h
Persistent=true

[Install]
WantedBy=timers.target
UNIT
  if [ "$changed" = 1 ]; then systemctl daemon-reload; fi
  if ! systemctl is-enabled --quiet "$TIMER" 2>/dev/null; then systemctl enable --now "$TIMER"; fi
  say "Scheduled a daily audit with upload: systemd timer $TIMER"
}

schedule_with_cron() {
  # A random time of day, kept once chosen, so that hosts do not all upload at once and a run again changes nothing.
  when=$(awk '!/^#/ && NF >= 7 { print $1, $2; exit }' "$CRON_FILE" 2>/dev/null || true)
  if [ -z "$when" ]; then
    random=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    when="$((random % 60)) $((random / 60 % 24))"
  fi
  write_if_changed "$CRON_FILE" 644 <<CRON || true
# Daily Lynis audit with upload to the audit collector (written by its enroll script; --uninstall removes it).
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
$when * * * root lynis audit system --cronjob --upload >/dev/null 2>&1
CRON
  say "Scheduled a daily audit with upload: $CRON_FILE"
}

enroll() {
  install_lynis
  say "Lynis $(lynis --version)"
  mkdir -p "$LYNIS_DIR"
  created_profile=0
  if created_before custom.prf || [ ! -f "$PROFILE" ]; then created_profile=1; fi
  if [ -n "$CERTIFICATE" ]; then say "$CERTIFICATE" | write_if_changed "$CERT_FILE" 644 || true; fi
  { profile_without_block; managed_block; } | write_if_changed "$PROFILE" 640 || true
  created_hostids=0
  if created_before hostids; then created_hostids=1; fi
  if [ ! -f "$HOSTIDS_FILE" ]; then
    lynis generate hostids --save
    created_hostids=1
  fi
  {
    say "# What the audit collector's enroll script added, for --uninstall."
    if [ "$created_hostids" = 1 ]; then say "created hostids"; fi
    if [ "$created_profile" = 1 ]; then say "created custom.prf"; fi
  } | write_if_changed "$STATE_FILE" 600 || true
  if [ -d /run/systemd/system ]; then schedule_with_systemd; else schedule_with_cron; fi
}

uninstall() {
  if [ -f "$PROFILE" ]; then
    profile_without_block | write_if_changed "$PROFILE" 640 || true
    if created_before custom.prf && ! grep -q '[^[:space:]]' "$PROFILE"; then rm -f "$PROFILE" && say "Removed $PROFILE"; fi
  fi
  if created_before hostids; then rm -f "$HOSTIDS_FILE" && say "Removed $HOSTIDS_FILE"; fi
  if [ -f "$UNIT_DIR/$TIMER" ] || [ -f "$UNIT_DIR/$SERVICE" ]; then
    if [ -d /run/systemd/system ]; then systemctl disable --now "$TIMER" 2>/dev/null || true; fi
    rm -f "$UNIT_DIR/$TIMER" "$UNIT_DIR/$SERVICE"
    if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
    say "Removed the systemd timer $TIMER"
  fi
  for file in "$CRON_FILE" "$CERT_FILE" "$STATE_FILE"; do
    if [ -f "$file" ]; then rm -f "$file" && say "Removed $file"; fi
  done
  say "Lynis stays installed: remove it with your package manager if you no longer want it."
}

main() {
  action=enroll
  first_audit=1
  while [ "$#" -gt 0 ]; do
    case "$1" in
      --no-run) first_audit=0 ;;
      --uninstall) action=uninstall ;;
      -h | --help)
        usage
        return 0
        ;;
      *) die "unknown option $1 (see --help)" ;;
    esac
    shift
  done
  [ "$(id -u)" = 0 ] || die "run this as root: curl ... | sudo sh"
  PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
  export PATH
  umask 022
  if [ "$action" = uninstall ]; then
    uninstall
    return 0
  fi
  enroll
  if [ "$first_audit" = 1 ]; then
    say "Running the first audit with upload (a few minutes)"
    lynis audit system --quick --upload
  fi
  say "This host will appear on the dashboard within a minute of its first upload: $DASHBOARD_URL"
}

# ENROLL_SCRIPT_FUNCTIONS_ONLY: define the functions and stop, for tests that source the script.
if [ -z "$ENROLL_SCRIPT_FUNCTIONS_ONLY" ]; then main "$@"; fi
`;
