/**
 * `mapping suggest <sample>`: the command's body, kept out of `cli.ts`. It reads the sample the way
 * intake reads a file (no symlink followed, no FIFO waited on), suggests a mapping from its first
 * bytes (a workbook's first rows, a CommerceML export's documents), previews the whole file with
 * it, and returns what to print and the exit code:
 *
 * - 0: every required field has a column (the YAML passes `check`) and the preview builds at least
 *   one request from the sample with no file-level problem;
 * - 1: a partial suggestion (a required field is a TODO line, so the YAML does not load until it is
 *   filled in) or a preview that builds nothing; the YAML is written all the same, as a start;
 * - 2: `--out` names a file that exists (without `--force`).
 *
 * Without `--out` the YAML goes to stdout and the summary to stderr, so `> mapping.yaml` works.
 */
import fs from 'node:fs';
import type { MappingKind } from '../../config/mapping-schema.js';
import { ConnectorError, isConnectorError } from '../../errors.js';
import { openInputFile, type InputHandle } from '../../shared/input-file.js';
import { formatSuggestionSummary, previewSuggestion, suggestExitCode } from './preview-suggestion.js';
import { suggestMappingForFile } from './suggest-file.js';

export interface SuggestCommandOptions {
  /** Default `requests`. */
  kind?: MappingKind | undefined;
  /** Write the YAML here instead of stdout. */
  out?: string | undefined;
  /** Replace an existing `out`. */
  force?: boolean | undefined;
}

export interface SuggestCommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export async function runSuggestCommand(sample: string, options: SuggestCommandOptions = {}, now = new Date()): Promise<SuggestCommandResult> {
  if (options.out !== undefined && !options.force && fs.existsSync(options.out)) {
    return { stdout: '', stderr: `mapping suggest: ${options.out} exists; pass --force to replace it\n`, exitCode: 2 };
  }
  let handle: InputHandle;
  try {
    handle = await openInputFile(sample);
  } catch (error) {
    throw isConnectorError(error) ? new ConnectorError(error.code, `${sample} ${error.message}`, { cause: error }) : error;
  }
  try {
    const suggestion = await suggestMappingForFile({ handle, name: sample }, { kind: options.kind ?? 'requests', now });
    const preview = await previewSuggestion(suggestion, { handle, name: sample }, { now });
    const exitCode = suggestExitCode(suggestion, preview);
    if (options.out === undefined) return { stdout: suggestion.yaml, stderr: formatSuggestionSummary(suggestion, preview, 'YAML on stdout'), exitCode };
    try {
      fs.writeFileSync(options.out, suggestion.yaml, { flag: options.force ? 'w' : 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        return { stdout: '', stderr: `mapping suggest: ${options.out} exists; pass --force to replace it\n`, exitCode: 2 };
      }
      throw error;
    }
    return { stdout: formatSuggestionSummary(suggestion, preview, `written to ${options.out}`), stderr: '', exitCode };
  } finally {
    await handle.close();
  }
}
