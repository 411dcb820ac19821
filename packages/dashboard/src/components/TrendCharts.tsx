// The Trends page's charts: open findings per interval, compliance per policy over time, and the time to fix per week.
// Each takes the API's figures as they are and draws them with the shared Plot; the page adds the text beside them.
import type uPlot from 'uplot';
import type { ComplianceHistory } from '@org/audit-client/sdk';
import { formatPercent } from '../trends.js';
import { COLOURS, countRange, dayAxis, daySplits, dayTime, Plot, utcDates, wholeTicks } from './Plot.js';

const DAY = 86_400;

/** Colours of the policies' lines; they repeat past eight policies, the legend tells them apart. */
const POLICY_COLOURS = ['#2563eb', '#d97706', '#059669', '#7c3aed', '#db2777', '#0891b2', '#65a30d', '#9f1239'];
/** The fleet's line: a wide grey band under the policies', so that a policy with the fleet's figures shows on it, not hidden by it. */
const FLEET_COLOUR = 'rgba(17, 24, 39, 0.3)';
const ACCEPTED_COLOUR = '#6b7280';
/** Dashes that tell lines apart where they run together (as many warnings as suggestions). */
const DASHED = [8, 4];
const DOTTED = [2, 3];

/** One time per UTC day given, and a range around them of half a day each side (one point alone is still a day wide). */
function timeAxis(days: string[]): { times: number[]; range: [number, number] } {
  const times = days.map(dayTime);
  return { times, range: times.length > 0 ? [times[0]! - DAY / 2, times.at(-1)! + DAY / 2] : [0, DAY] };
}

/** The options every trend chart shares: UTC days on the x axis, named by `xLabel`, and a legend that stays put. */
function trendOptions(width: number, height: number, range: [number, number], xLabel: string, y: Partial<uPlot.Axis>, yRange: uPlot.Scale['range']) {
  return {
    width,
    height,
    ...utcDates,
    scales: { x: { time: true, auto: false, range }, y: { range: yRange } },
    axes: [{ ...dayAxis, label: xLabel, splits: daySplits(72) }, y],
    legend: { show: true, live: false },
  } satisfies Partial<uPlot.Options>;
}

/** A line of a trend chart; points drawn while there are few enough to tell apart. */
const line = (label: string, stroke: string, count: number, width = 2): uPlot.Series => ({ label, stroke, width, points: { show: count <= 60, size: 5 } });

/** The x axis' name for the interval. */
export const intervalAxisLabel = (interval: ComplianceHistory['interval']) => (interval === 'week' ? 'Week ending (UTC)' : 'Day (UTC)');

/** Open warnings, open suggestions and accepted findings at the end of each interval. */
export function OpenFindingsChart({ history }: { history: ComplianceHistory }) {
  const { points } = history;
  const { times, range } = timeAxis(points.map((point) => point.date));
  const last = points.at(-1);
  return (
    <Plot
      label={
        last
          ? `Open findings per ${history.interval}, ${points[0]!.date} to ${last.date}: on ${last.date}, ${last.openFindings.warning} warnings, ` +
            `${last.openFindings.suggestion} suggestions and ${last.openFindings.accepted} accepted`
          : 'Open findings: no point in the window'
      }
      height={260}
      data={[
        times,
        points.map((point) => point.openFindings.warning),
        points.map((point) => point.openFindings.suggestion),
        points.map((point) => point.openFindings.accepted),
      ]}
      build={(width, height) => ({
        ...trendOptions(width, height, range, intervalAxisLabel(history.interval), { label: 'Open findings', ...wholeTicks }, countRange),
        series: [
          {},
          line('Warnings', COLOURS.bad, points.length),
          { ...line('Suggestions', COLOURS.accent, points.length), dash: DASHED },
          { ...line('Accepted risk', ACCEPTED_COLOUR, points.length), dash: DOTTED },
        ],
      })}
    />
  );
}

/**
 * The percentage of compliant hosts at the end of each interval: the fleet's (over every policy) and each policy's.
 * A point without a host of known status is a gap, not a zero.
 */
export function PolicyComplianceChart({ history }: { history: ComplianceHistory }) {
  const { points, policies } = history;
  const days = points.map((point) => point.date);
  const { times, range } = timeAxis(days);
  const byPolicy = policies.map((policy) => {
    const percentOn = new Map(policy.points.map((point) => [point.date, point.compliancePercent]));
    return days.map((day) => percentOn.get(day) ?? null);
  });
  const last = points.at(-1);
  return (
    <Plot
      label={
        last
          ? `Compliant hosts per ${history.interval}, ${days[0]} to ${last.date}: on ${last.date}, fleet ${formatPercent(last.compliancePercent)}` +
            policies.map((policy, i) => `, ${policy.name} ${formatPercent(byPolicy[i]!.at(-1) ?? null)}`).join('')
          : 'Compliance: no point in the window'
      }
      height={260}
      data={[times, points.map((point) => point.compliancePercent), ...byPolicy]}
      build={(width, height) => ({
        ...trendOptions(width, height, range, intervalAxisLabel(history.interval), { label: 'Compliant hosts (%)' }, [0, 100]),
        series: [
          {},
          { ...line('Fleet (every policy)', FLEET_COLOUR, points.length, 7), points: { show: false } },
          ...policies.map((policy, i) => line(policy.name, POLICY_COLOURS[i % POLICY_COLOURS.length]!, points.length)),
        ],
      })}
    />
  );
}

/** One week of the time to fix: the day it ends, and the mean and median hours of the findings resolved in it. */
export interface FixWeek {
  end: string;
  meanHours: number | null;
  medianHours: number | null;
}

/** Mean and median hours to fix per week; a week without a resolution is a gap. */
export function FixTimeChart({ weeks }: { weeks: FixWeek[] }) {
  const { times, range } = timeAxis(weeks.map((week) => week.end));
  return (
    <Plot
      label={`Hours to fix per week, ${weeks.length} weeks to ${weeks.at(-1)?.end ?? 'today'}: ${weeks
        .map((week) => `${week.end}: mean ${hoursText(week.meanHours)}, median ${hoursText(week.medianHours)}`)
        .join('; ')}`}
      height={240}
      data={[times, weeks.map((week) => week.meanHours), weeks.map((week) => week.medianHours)]}
      build={(width, height) => ({
        ...trendOptions(width, height, range, 'Week ending (UTC)', { label: 'Hours to fix' }, countRange),
        // The mean's points larger than the median's: where the two are equal (one finding resolved), both show.
        series: [
          {},
          { ...line('Mean', COLOURS.accent, weeks.length), points: { show: true, size: 10 } },
          { ...line('Median', '#d97706', weeks.length), dash: DASHED, points: { show: true, size: 5 } },
        ],
      })}
    />
  );
}

const hoursText = (hours: number | null) => (hours === null ? 'none resolved' : `${Math.round(hours * 10) / 10} h`);
