/** One line of a session's run.jsonl (domain/sessions/run-log.ts writes them). */
export interface RunLogLine {
  time: string;
  source: string;
  level: string;
  message: string;
  windowId?: string;
}

export interface ParsedRunLog {
  lines: RunLogLine[];
  /** Lines that were not a JSON object (a torn last line while the log is written). */
  unreadable: number;
}

export function parseRunLog(text: string): ParsedRunLog {
  const lines: RunLogLine[] = [];
  let unreadable = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const value = JSON.parse(raw) as Partial<RunLogLine> | null;
      if (!value || typeof value !== 'object') throw new Error('not an object');
      lines.push({
        time: String(value.time ?? ''),
        source: String(value.source ?? ''),
        level: String(value.level ?? ''),
        message: typeof value.message === 'string' ? value.message : JSON.stringify(value),
        ...(value.windowId ? { windowId: String(value.windowId) } : {}),
      });
    } catch {
      unreadable += 1;
    }
  }
  return { lines, unreadable };
}
