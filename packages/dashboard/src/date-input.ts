// A native `<input type="date">` holds a day (`YYYY-MM-DD`) with no time zone; the dashboard reads it as a day of
// the browser's time zone, as it shows every time, and sends its start as the contract's date-time.

/** `YYYY-MM-DD` of the local day of `time`, as a date input reads and writes it. */
export function dateInputValue(time: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
}

/** The ISO date-time of the start of a local day given as a date input value. */
export function startOfLocalDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year ?? 0, (month ?? 1) - 1, date ?? 1).toISOString();
}
