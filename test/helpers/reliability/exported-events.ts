/**
 * The eventIds in the status files of an import folder (`config/mappings/status-export.yaml`:
 * windows-1251, `;`, the eventId in the 4th column), read as files arrive: each file is read once,
 * so that a test polling a folder of thousands of per-event files does not read them all each time.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';

export interface ExportedEvents {
  /** Read the files that arrived since the last call; returns every eventId seen so far. */
  read(): ReadonlySet<string>;
  /** Rows seen so far (more than the ids if an event was written twice). */
  readonly rows: number;
}

export function watchExportedEvents(folder: string): ExportedEvents {
  const seenFiles = new Set<string>();
  const ids = new Set<string>();
  let rows = 0;
  return {
    read() {
      for (const name of fs.readdirSync(folder)) {
        // Temp files (`.<name>.<random>.tmp`) are not files yet.
        if (!name.endsWith('.csv') || name.startsWith('.') || seenFiles.has(name)) continue;
        seenFiles.add(name);
        const lines = iconv
          .decode(fs.readFileSync(path.join(folder, name)), 'win1251')
          .split('\r\n')
          .filter((l) => l !== '');
        for (const line of lines.slice(1)) {
          ids.add(line.split(';')[3]!);
          rows += 1;
        }
      }
      return ids;
    },
    get rows() {
      return rows;
    },
  };
}
