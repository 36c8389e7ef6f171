/**
 * The mapping page's bounds. Everything it reads arrives from a browser or from a folder other
 * people write, and each preview maps a whole sample, so every size and count is capped.
 */
import { MAX_YAML_BYTES } from '../../../config/load-config.js';

/** The editor's YAML: the daemon's own cap on a mapping file (1 MiB). */
export const MAX_EDITOR_BYTES = MAX_YAML_BYTES;

/** A sample (uploaded or from the archive) is read whole into memory and mapped on every preview: 4 MiB. */
export const MAX_SAMPLE_BYTES = 4 * 1024 * 1024;

/** A form of the page: the YAML, one sample and a few small fields. */
export const MAX_STUDIO_FORM_BYTES = MAX_EDITOR_BYTES + MAX_SAMPLE_BYTES + 64 * 1024;

/** Archived files offered as samples: the newest ones, by modification time. */
export const ARCHIVE_SAMPLES = 10;

/** Uploaded samples kept in memory for the next previews (the oldest goes first), and for how long. */
export const UPLOADS_KEPT = 4;
export const UPLOAD_TTL_MS = 30 * 60_000;

/** Payloads and problems a preview shows (the counts are always whole). */
export const SHOWN_PAYLOADS = 20;
export const SHOWN_PROBLEMS = 200;

/** A preview that maps for longer than this is stopped and says so. */
export const PREVIEW_TIMEOUT_MS = 10_000;
