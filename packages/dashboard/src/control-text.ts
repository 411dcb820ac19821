/** A refused mapping file's problem as lines to show: its summary, then each bad line the server named (`…: line 3: …; line 5: …`). */
export const badLines = (detail: string): string[] => detail.split(/; (?=line \d+:)|: (?=line \d+:)/);
