/** Folder listings for assertions. */
import fs from 'node:fs';

/** Names in a folder, sorted; hidden (temp) files left out unless `hidden`; [] when it does not exist. */
export function listFiles(folder: string, options: { hidden?: boolean } = {}): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => options.hidden === true || !name.startsWith('.'))
    .sort();
}
