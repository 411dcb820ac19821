import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { MAX_HOST_LABELS, MAX_LABEL_LENGTH, parseLynisReport, readReportBytes, summarizeReportBytes } from './lynis-report.js';

const fixture = readLynisFixture('report.dat');
const fixtureText = fixture.toString('utf8');

/** Parses text that must be a Lynis report. */
const parse = (text: string) => {
  const parsed = parseLynisReport(text);
  if (!parsed) throw new Error('expected a Lynis report');
  return parsed;
};
/** A minimal report: the version line that makes text a Lynis report, then `lines`. */
const report = (...lines: string[]) => ['lynis_version=3.0.8', ...lines].join('\n');

describe('parseLynisReport on the report captured from Lynis 3.0.8', () => {
  const { summary, values } = parse(fixtureText);

  it('reads the host, OS, versions, times and scores', () => {
    expect({ ...summary, warnings: undefined, suggestions: undefined }).toEqual({
      lynisVersion: '3.0.8',
      reportVersion: '1.0',
      hostname: 'localhost',
      os: { name: 'Debian', fullName: 'Debian GNU/Linux 12 (bookworm)', version: '12', kernel: '6.18.44-fc-v657' },
      startedAt: '2026-11-22 13:40:33',
      endedAt: '2026-11-22 13:41:24',
      hardeningIndex: 56,
      testsPerformed: 235,
      warnings: undefined,
      suggestions: undefined,
    });
  });

  it('reads both warnings', () => {
    expect(summary.warnings).toEqual([
      { testId: 'PKGS-7392', text: 'Found one or more vulnerable packages.', details: null, solution: null },
      { testId: 'LOGG-2138', text: 'klogd is not running, which could lead to missing kernel messages in log files', details: null, solution: null },
    ]);
  });

  it('reads all 45 suggestions in report order, with details and solutions where Lynis wrote them', () => {
    expect(summary.suggestions).toHaveLength(45);
    expect(summary.suggestions[0]).toEqual({
      testId: 'LYNIS',
      text: 'This release is more than 4 months old. Check the website or GitHub to see if there is an update available.',
      details: null,
      solution: null,
    });
    const byTest = (testId: string) => summary.suggestions.filter((s) => s.testId === testId);
    expect(byTest('BOOT-5264')).toEqual([
      {
        testId: 'BOOT-5264',
        text: 'Consider hardening system services',
        details: "Run '/usr/bin/systemd-analyze security SERVICE' for each service",
        solution: null,
      },
    ]);
    expect(byTest('KRNL-5788')).toEqual([
      {
        testId: 'KRNL-5788',
        text: 'Determine why /vmlinuz or /boot/vmlinuz is missing on this Debian/Ubuntu system.',
        details: '/vmlinuz or /boot/vmlinuz',
        solution: null,
      },
    ]);
    expect(byTest('FILE-7524')).toEqual([
      {
        testId: 'FILE-7524',
        text: 'Consider restricting file permissions',
        details: 'See screen output or log file',
        solution: 'text:Use chmod to change file permissions',
      },
    ]);
    // An empty details field reads null like `-`.
    expect(byTest('KRNL-6000')).toEqual([
      {
        testId: 'KRNL-6000',
        text: 'One or more sysctl values differ from the scan profile and could be tweaked',
        details: null,
        solution: 'Change sysctl value or disable test (skip-test=KRNL-6000:<sysctl-key>)',
      },
    ]);
    expect(byTest('FILE-6310').map((s) => s.text)).toEqual([
      'To decrease the impact of a full /home file system, place /home on a separate partition',
      'To decrease the impact of a full /tmp file system, place /tmp on a separate partition',
      'To decrease the impact of a full /var file system, place /var on a separate partition',
    ]);
  });

  it('keeps every key in values, known or not, arrays under their `[]` name', () => {
    expect(values['localhost-mapped-to']).toBe('127.0.0.1');
    expect(values['hardening_index']).toBe('56');
    expect(values['license_key']).toBe('deadbeef-0000-0000-0000-000000000001');
    const vulnerable = values['vulnerable_package[]'];
    expect(Array.isArray(vulnerable) && vulnerable.length).toBe(81);
    expect((vulnerable as string[]).slice(0, 3)).toEqual(['apt', 'apt-transport-https', 'ca-certificates']);
    expect(values['suggestion[]']).toHaveLength(45);
    // Every key=value line of the file is in values: count the distinct keys independently.
    const keys = new Set(
      fixtureText
        .split('\n')
        .filter((line) => /^[^#=][^=]*=/.test(line))
        .map((line) => line.slice(0, line.indexOf('='))),
    );
    expect(Object.keys(values).sort()).toEqual([...keys].sort());
  });

  it('ignores the comment lines', () => {
    expect(fixtureText.startsWith('# Lynis Report\n')).toBe(true);
    expect(Object.keys(values).some((key) => key.startsWith('#'))).toBe(false);
  });

  it('reads the report the same with CRLF line ends', () => {
    expect(parse(fixtureText.replaceAll('\n', '\r\n'))).toEqual(parse(fixtureText));
  });
});

describe('parseLynisReport on edge cases', () => {
  it('answers null for text that is not a Lynis report', () => {
    expect(parseLynisReport('')).toBeNull();
    expect(parseLynisReport('hello world\n')).toBeNull();
    expect(parseLynisReport('os=Linux\nhostname=web-01\n')).toBeNull();
    expect(parseLynisReport('# lynis_version=3.0.8\n')).toBeNull();
    expect(parseLynisReport('{"lynis_version": "3.0.8"}')).toBeNull();
  });

  it('takes report_version_major alone as the mark of a Lynis report', () => {
    expect(parse('report_version_major=1\nreport_version_minor=0\n').summary).toMatchObject({ lynisVersion: null, reportVersion: '1.0' });
  });

  it('sets every field Lynis did not write to null, never undefined', () => {
    expect(parse('lynis_version=3.0.8\n').summary).toStrictEqual({
      lynisVersion: '3.0.8',
      reportVersion: null,
      hostname: null,
      os: { name: null, fullName: null, version: null, kernel: null },
      startedAt: null,
      endedAt: null,
      hardeningIndex: null,
      testsPerformed: null,
      warnings: [],
      suggestions: [],
    });
  });

  it('reads empty values as null in the summary but keeps them in values', () => {
    const { summary, values } = parse(report('hostname=', 'os_kernel_version_full=', 'os_kernel_version=6.1.0'));
    expect(summary.hostname).toBeNull();
    expect(summary.os.kernel).toBe('6.1.0');
    expect(values['hostname']).toBe('');
  });

  it.each([
    ['a word', 'unknown'],
    ['a decimal', '56.5'],
    ['a negative number', '-1'],
    ['a number over 100', '101'],
    ['a sign', '+56'],
    ['spaces', ' 56'],
    ['nothing', ''],
  ])('reads a hardening index of %s as null', (_name, value) => {
    expect(parse(report(`hardening_index=${value}`)).summary.hardeningIndex).toBeNull();
  });

  it('reads hardening indexes 0 and 100, and a non-numeric test count as null', () => {
    expect(parse(report('hardening_index=0')).summary.hardeningIndex).toBe(0);
    expect(parse(report('hardening_index=100')).summary.hardeningIndex).toBe(100);
    expect(parse(report('lynis_tests_done=many')).summary.testsPerformed).toBeNull();
  });

  it('lets the last of a repeated key win and appends repeated array keys', () => {
    const { summary, values } = parse(report('hostname=first', 'hostname=second', 'tag[]=a', 'tag[]=b', 'tag[]='));
    expect(summary.hostname).toBe('second');
    expect(values['tag[]']).toEqual(['a', 'b', '']);
  });

  it('splits at the first `=` only', () => {
    expect(parse(report('skip=KRNL-6000:kernel.x=1')).values['skip']).toBe('KRNL-6000:kernel.x=1');
  });

  it('skips lines without `=`, without a key, comments and blank lines', () => {
    const { values } = parse(report('', 'no equals sign here', '=value without key', '#commented=out', '   ', 'kept=yes', ''));
    expect(values).toEqual({ lynis_version: '3.0.8', kept: 'yes' });
  });

  it('keeps a value that runs to the end of the text without a newline, and ignores a byte order mark', () => {
    expect(parse('\uFEFFlynis_version=3.0.8\r\nhostname=web-01').summary).toMatchObject({ lynisVersion: '3.0.8', hostname: 'web-01' });
  });

  it('keeps keys that name Object properties as ordinary entries', () => {
    const { values } = parse(report('__proto__=x', 'constructor=y'));
    expect(Object.getPrototypeOf(values)).toBeNull();
    expect({ proto: values['__proto__'], constructor: values['constructor'] }).toEqual({ proto: 'x', constructor: 'y' });
  });

  it('reads a `|` inside a finding as part of its text, and fills missing fields with null', () => {
    const { warnings, suggestions } = parse(
      report(
        'warning[]=NETW-1|Interface eth0|eth1 is promiscuous|eth0|Disable promiscuous mode|',
        'warning[]=AUTH-1|Old style line without details|',
        'warning[]=AUTH-2|No closing pipe|details|solution',
        'warning[]=AUTH-3',
        'suggestion[]=|no test id|-|-|',
        'suggestion[]=',
        'suggestion[]=SSH-7408|Consider hardening SSH configuration|AllowTcpForwarding (set YES to NO)|-|',
      ),
    ).summary;
    expect(warnings).toEqual([
      { testId: 'NETW-1', text: 'Interface eth0|eth1 is promiscuous', details: 'eth0', solution: 'Disable promiscuous mode' },
      { testId: 'AUTH-1', text: 'Old style line without details', details: null, solution: null },
      { testId: 'AUTH-2', text: 'No closing pipe', details: 'details', solution: 'solution' },
      { testId: 'AUTH-3', text: '', details: null, solution: null },
    ]);
    expect(suggestions).toEqual([
      { testId: 'SSH-7408', text: 'Consider hardening SSH configuration', details: 'AllowTcpForwarding (set YES to NO)', solution: null },
    ]);
  });

  it('reads a megabytes-long run of lines without `=` in linear time', () => {
    const text = `lynis_version=3.0.8\n${'x\n'.repeat(2_000_000)}end=1\n`;
    const started = performance.now();
    expect(parse(text).values['end']).toBe('1');
    // Rescanning for `=` from every line would take hours; one pass takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('the summary in memory', () => {
  it('keeps none of the report text alive (V8 substrings are views into the text they were cut from)', () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const heapAfterGc = () => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const textBytes = 64 * 1024 * 1024;
    const summaryOfBigReport = () => {
      const longText = 'a finding whose text is long enough to be a view';
      const text = report('os_fullname=Debian GNU/Linux 12 (bookworm)', `warning[]=TEST-1|${longText}|-|-|`, `# ${'x'.repeat(textBytes)}`);
      return parse(text).summary;
    };
    const before = heapAfterGc();
    const summary = summaryOfBigReport();
    const retained = heapAfterGc() - before;
    expect(summary.os.fullName).toBe('Debian GNU/Linux 12 (bookworm)');
    expect(summary.warnings[0]!.text).toBe('a finding whose text is long enough to be a view');
    expect(retained).toBeLessThan(textBytes / 4);
  });
});

describe('summarizeReportBytes', () => {
  it('summarizes UTF-8 report bytes like the parsed text', () => {
    expect(summarizeReportBytes(fixture)).toEqual(parse(fixtureText).summary);
  });

  it('reads a report of many chunks (CRLF, byte order mark, a line longer than a chunk, multibyte text) like the whole text', () => {
    const text = [
      '\uFEFFlynis_version=3.0.8',
      `installed_packages_array=${'|pkg,1.0'.repeat(20_000)}|`,
      ...Array.from({ length: 3_000 }, (_, i) => `suggestion[]=TEST-${i}|Überprüfen Sie ✓ die Einstellung ${i}|-|-|`),
      'hardening_index=71',
      'hostname=último',
    ].join('\r\n');
    const bytes = Buffer.from(text);
    expect(bytes.length).toBeGreaterThan(300 * 1024);
    const summary = summarizeReportBytes(bytes);
    expect(summary).toEqual(parse(text).summary);
    expect(summary).toMatchObject({ lynisVersion: '3.0.8', hardeningIndex: 71, hostname: 'último' });
    expect(summary!.suggestions).toHaveLength(3_000);
    expect(summary!.suggestions[2_999]).toEqual({ testId: 'TEST-2999', text: 'Überprüfen Sie ✓ die Einstellung 2999', details: null, solution: null });
  });

  it('answers null for bytes that are not UTF-8, or not a Lynis report', () => {
    expect(summarizeReportBytes(Buffer.from([0x6c, 0x79, 0x6e, 0x69, 0x73, 0x5f, 0x76, 0x3d, 0xff, 0xfe, 0x0a]))).toBeNull();
    expect(summarizeReportBytes(Buffer.from('lynis_version=3.0.8\n\xff', 'latin1'))).toBeNull();
    expect(summarizeReportBytes(Buffer.from('a=1\nb=2\n'))).toBeNull();
  });
});

describe('readReportBytes: the summary and the host labels of the Lynis profile', () => {
  const read = (...lines: string[]) => readReportBytes(Buffer.from(report(...lines)));

  it('reads the summary exactly as summarizeReportBytes does, and no labels from a report without them', () => {
    const reading = readReportBytes(fixture);
    expect(reading!.summary).toEqual(summarizeReportBytes(fixture));
    expect(reading!.labels).toEqual({ groups: [], tags: [], customerName: null, hostnameAlias: null, machineId: null, autoPurge: false });
  });

  it("splits groups and tags at commas, trims them, drops empty ones and repeats, in the report's order", () => {
    const reading = read(
      'system-groups= webservers ,, dmz,webservers, ,pci ',
      'tags=production,Production,eu-west',
      'system-customer-name=  Acme Corp ',
      'hostname_alias=web-01.example.org',
    );
    expect(reading!.labels).toEqual({
      groups: ['webservers', 'dmz', 'pci'],
      tags: ['production', 'Production', 'eu-west'],
      customerName: 'Acme Corp',
      hostnameAlias: 'web-01.example.org',
      machineId: null,
      autoPurge: false,
    });
  });

  it("reads the machine's id and whether it allows auto-purge (only `1` does)", () => {
    expect(read('machineid=4c4c4544004a4d10804cb2c04f4e3232', 'allow-auto-purge=1')!.labels).toMatchObject({
      machineId: '4c4c4544004a4d10804cb2c04f4e3232',
      autoPurge: true,
    });
    expect(read('machineid=', 'allow-auto-purge=0')!.labels).toMatchObject({ machineId: null, autoPurge: false });
    expect(read('allow-auto-purge=yes')!.labels).toMatchObject({ autoPurge: false });
  });

  it('takes the last line of a key, and reads empty or blank values as none', () => {
    expect(read('tags=old', 'tags=new', 'system-customer-name=', 'hostname_alias=   ', 'system-groups=,, ,')!.labels).toEqual({
      groups: [],
      tags: ['new'],
      customerName: null,
      hostnameAlias: null,
      machineId: null,
      autoPurge: false,
    });
  });

  it('keeps hostile text as it is (an = in the value, unicode, markup) but bounds counts and lengths', () => {
    const long = `${'x'.repeat(MAX_LABEL_LENGTH - 1)}\u{1F600}tail`;
    const reading = read(
      `system-groups=${Array.from({ length: 5000 }, (_, i) => `g${i}`).join(',')}`,
      `tags=a=b,<script>,é✓,${long},${long}x`,
      `system-customer-name=${'c'.repeat(10_000)}`,
      'hostname_alias=a|b|c',
    );
    const { groups, tags, customerName, hostnameAlias } = reading!.labels;
    expect(groups).toHaveLength(MAX_HOST_LABELS);
    expect(groups.at(-1)).toBe(`g${MAX_HOST_LABELS - 1}`);
    // Cut before the emoji rather than between its two halves; both long tags cut to the same text, kept once.
    expect(tags).toEqual(['a=b', '<script>', 'é✓', 'x'.repeat(MAX_LABEL_LENGTH - 1)]);
    expect(customerName).toBe('c'.repeat(MAX_LABEL_LENGTH));
    expect(hostnameAlias).toBe('a|b|c');
  });

  it('reads labels on any line of a report of many chunks, and none from text that is not a Lynis report', () => {
    const lines = ['lynis_version=3.0.8', ...Array.from({ length: 5_000 }, (_, i) => `suggestion[]=TEST-${i}|text ${i}|-|-|`), 'tags=late,one'];
    const reading = readReportBytes(Buffer.from(lines.join('\n')));
    expect(reading!.labels.tags).toEqual(['late', 'one']);
    expect(reading!.summary.suggestions).toHaveLength(5_000);
    expect(readReportBytes(Buffer.from('tags=a,b\nsystem-groups=c\n'))).toBeNull();
    expect(readReportBytes(Buffer.from('lynis_version=3.0.8\ntags=\xff', 'latin1'))).toBeNull();
  });

  it('keeps none of the report text alive through a label', () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const heapAfterGc = () => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const lineBytes = 32 * 1024 * 1024;
    // One line far longer than a chunk: the chunk decoded is that whole line, and a label cut from it without a
    // copy would keep all of it.
    const labelsOfBigReport = () =>
      readReportBytes(Buffer.from(report(`tags=${'t'.repeat(40)},${'x'.repeat(lineBytes)}`, `hostname_alias=${'a'.repeat(40)}`)))!.labels;
    const before = heapAfterGc();
    const labels = labelsOfBigReport();
    const retained = heapAfterGc() - before;
    expect(labels.tags).toEqual(['t'.repeat(40), 'x'.repeat(MAX_LABEL_LENGTH)]);
    expect(labels.hostnameAlias).toBe('a'.repeat(40));
    expect(retained).toBeLessThan(lineBytes / 4);
  });
});
