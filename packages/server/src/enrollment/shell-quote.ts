/**
 * `text` as one POSIX shell word: in single quotes, each single quote written as `'\''`. Nothing inside single
 * quotes is expanded, so any text (a newline, `$(…)`, a backquote) stays text.
 */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
