// Reads the upload settings from Lynis profiles the way Lynis 3 does (include/profiles and include/data_upload):
// the same characters refused, the same lines read, the same aliases, the last value winning.

/** The upload settings found in Lynis profiles; each absent when no profile sets it. */
export interface LynisUploadSettings {
  /** `upload-server`: host, optional port and the API prefix, e.g. `collector:8443/api/audit`. */
  uploadServer?: string;
  /** `license-key` as Lynis sends it: every character other than `a-f`, `0-9`, `-`, `[` and `]` deleted. */
  licenseKey?: string;
  /** `upload-options`: extra curl options, e.g. `--insecure` or `--cacert /etc/lynis/collector.pem`. */
  uploadOptions?: string;
  hostId?: string;
  hostId2?: string;
}

/** A profile Lynis itself would refuse to read. */
export class LynisProfileError extends Error {
  override name = 'LynisProfileError';
}

/** Characters Lynis does not allow in a profile line (the complement of `[:alnum:]/\[\]\(\)_\|,\.:;= \n\r-`). */
const NOT_ALLOWED = /[^A-Za-z0-9/[\]()_|,.:;= \r-]/g;
/** Lines Lynis does not check for unexpected characters: empty, indented, comments and old `config:` lines. */
const UNCHECKED_LINE = /^$|^ |^#|^config:/;
/** Lines Lynis reads settings from (`grep -E "^config:|^[a-z-].*="`). */
const SETTING_LINE = /^config:|^[a-z-].*=/;

/** Reads the upload settings from the text of one or more profiles, in order; a later value wins, as in Lynis. */
export function parseLynisProfiles(profiles: Array<{ name: string; text: string }>): LynisUploadSettings {
  const settings: LynisUploadSettings = {};
  for (const { name, text } of profiles) {
    // A Windows line ending is dropped here; Lynis would keep the CR in the value and then fail to connect.
    const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
    lines.forEach((line, index) => {
      const unexpected = UNCHECKED_LINE.test(line) ? null : line.match(NOT_ALLOWED);
      if (unexpected) {
        throw new LynisProfileError(`${name} line ${index + 1}: unexpected characters ${JSON.stringify(unexpected.join(''))}; Lynis refuses this profile too`);
      }
    });
    for (const line of lines.filter((l) => SETTING_LINE.test(l))) {
      // Lynis deletes the characters it does not allow (`tr -dc`) before splitting.
      const [option, value] = optionAndValue(line.replace(NOT_ALLOWED, ''));
      applySetting(settings, option, value);
    }
  }
  return settings;
}

/** Splits a line as Lynis does: `cut -d= -f1` and `cut -d= -f2`, so a value ends at its next `=`. */
function optionAndValue(line: string): [string, string] {
  if (line.startsWith('config:')) {
    const [, option = '', value = ''] = line.split(':');
    return [option, value];
  }
  const [option = '', value = ''] = line.split('=');
  return [option, value];
}

function applySetting(settings: LynisUploadSettings, option: string, value: string): void {
  switch (option) {
    case 'hostid':
      settings.hostId = value;
      break;
    case 'hostid2':
      settings.hostId2 = value;
      break;
    case 'license-key':
    case 'license_key':
      // Lynis keeps an earlier key when a later profile sets an empty one.
      if (value !== '') settings.licenseKey = lynisKeyAsSent(value);
      break;
    case 'upload-options':
    case 'upload_options':
      settings.uploadOptions = value;
      break;
    case 'upload-server':
    case 'upload_server':
      settings.uploadServer = value;
      break;
  }
}

/** The key as Lynis sends it: `tr -cd '[a-f0-9-]'`, which also keeps the brackets of that set. */
export function lynisKeyAsSent(key: string): string {
  return key.replace(/[^a-f0-9\-[\]]/g, '');
}

/** What `upload-options` says about TLS; options other than these are reported back as ignored. */
export interface UploadOptionsTls {
  insecure: boolean;
  caFile?: string;
  ignored: string[];
}

/** Reads curl's TLS options from `upload-options`: `-k`/`--insecure` and `--cacert FILE`, split on blanks as the shell does. */
export function parseUploadOptions(uploadOptions: string | undefined): UploadOptionsTls {
  const words = (uploadOptions ?? '').split(/\s+/).filter(Boolean);
  const result: UploadOptionsTls = { insecure: false, ignored: [] };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--insecure' || /^-[A-Za-z]*k[A-Za-z]*$/.test(word)) result.insecure = true;
    else if (word === '--cacert' && words[i + 1] !== undefined) result.caFile = words[++i];
    else result.ignored.push(word);
  }
  return result;
}
