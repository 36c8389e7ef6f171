/**
 * The workbook's ZIP container, read through yauzl over the caller's InputHandle (positional reads,
 * never a second open of the path: the handle is what intake hashed and claimed).
 *
 * Random access is the point: the central directory at the end of the file lists every part, so
 * the small parts a sheet depends on are read first whatever their order in the archive, and a
 * part is only ever inflated when asked for (`xl/vbaProject.bin` never is). Limits are checked on
 * the directory before anything inflates: at most 10,000 entries, and declared sizes that add up
 * to at most `maxUncompressedBytes`. Each entry is then held to its declared size while it
 * inflates (an entry that inflates past it is refused, not trusted: `zip/inflate-entry.ts`), and every
 * inflated byte is counted.
 */
import yauzl from 'yauzl';
import { ConnectorError, isConnectorError, type MessageText } from '../../../errors.js';
import { cannotReadFile, type InputHandle } from '../../../shared/input-file.js';
import { HandleReader } from '../zip/handle-reader.js';
import { inflateEntry } from '../zip/inflate-entry.js';

/** More parts than any workbook has (a large one has a few hundred): a zip bomb of many entries. */
export const MAX_ENTRIES = 10_000;

const ENCRYPTED: MessageText = { key: 'workbookEncrypted' };

/** What a read did, for tests and benchmarks that check the limits and the releasing hold. */
export interface InflateMeter {
  /** Inflated bytes taken from the archive, all parts and passes together. */
  inflatedBytes: number;
  /** Each part opened for reading, in order (a part read twice appears twice). */
  opened: string[];
  /** Part streams open now. */
  openStreams?: number;
  /** The archive was closed (`close()`). */
  closed?: boolean;
}

export interface ArchiveLimits {
  maxUncompressedBytes: number;
}

/** An opened workbook archive: its directory, and parts opened as inflating streams. */
export class WorkbookArchive {
  private readonly reads = new Set<AbortController>();

  private constructor(
    private readonly handle: InputHandle,
    private readonly zip: yauzl.ZipFile,
    /** Entries by lower-cased name: part names are case-insensitive in OOXML. */
    private readonly entries: ReadonlyMap<string, yauzl.Entry>,
    private readonly meter: InflateMeter,
  ) {}

  /** Open the archive and read its directory; throws the limit, encryption and damage errors. */
  static async open(handle: InputHandle, limits: ArchiveLimits, meter: InflateMeter): Promise<WorkbookArchive> {
    const size = (await handle.stat()).size;
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.fromRandomAccessReaderPromise(new HandleReader(handle), size, { autoClose: false, validateEntrySizes: true, strictFileNames: false });
    } catch (error) {
      throw archiveError(error);
    }
    try {
      if (zip.entryCount > MAX_ENTRIES) {
        throw new ConnectorError('WORKBOOK_LIMIT_EXCEEDED', `holds ${zip.entryCount} parts, more than any workbook (at most ${MAX_ENTRIES}): refused unread`, {
          text: { key: 'workbookParts', params: { n: zip.entryCount, max: MAX_ENTRIES } },
        });
      }
      const entries = await readDirectory(zip, limits);
      return new WorkbookArchive(handle, zip, entries, meter);
    } catch (error) {
      zip.close();
      throw archiveError(error);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  /** The part names, as the archive spells them. */
  names(): string[] {
    return [...this.entries.values()].map((entry) => entry.fileName);
  }

  /**
   * A part's inflated bytes, chunk by chunk, as the consumer asks for them: the inflate stream is
   * paused between chunks, so nothing inflates ahead of the consumer by more than the stream's
   * buffer. Leaving the loop early (or `close()`) destroys the stream, which stops reading and
   * inflating. An abort of `signal` destroys it at once, with the signal's reason.
   */
  async *read(name: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name.toLowerCase());
    if (entry === undefined) {
      throw new ConnectorError('FILE_UNREADABLE', `is not a complete xlsx workbook: it has no part ${name}`, {
        text: { key: 'workbookNoPart', params: { part: name } },
      });
    }
    signal?.throwIfAborted();
    if (this.meter.closed) throw new ConnectorError('INTERNAL_ERROR', 'the workbook archive was read after it was closed');
    this.meter.opened.push(entry.fileName);
    this.meter.openStreams = (this.meter.openStreams ?? 0) + 1;
    // Stopped by the caller's signal, or by close().
    const stop = new AbortController();
    this.reads.add(stop);
    const abort = () => stop.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      yield* inflateEntry(this.handle, entry, (bytes) => (this.meter.inflatedBytes += bytes), stop.signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw archiveError(error, entry.fileName);
    } finally {
      signal?.removeEventListener('abort', abort);
      this.reads.delete(stop);
      this.meter.openStreams! -= 1;
    }
  }

  /** Stop every read and release the archive (the FileHandle stays open: it is the caller's). */
  close(): void {
    for (const read of this.reads) read.abort(new ConnectorError('INTERNAL_ERROR', 'the workbook archive was closed'));
    this.reads.clear();
    this.zip.close();
    this.meter.closed = true;
  }
}

/** Every entry of the central directory, checked before any part inflates. */
async function readDirectory(zip: yauzl.ZipFile, limits: ArchiveLimits): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  let declared = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      zip.removeAllListeners('entry');
      reject(error as Error);
    };
    zip.on('error', fail);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.isEncrypted())
        return fail(
          new ConnectorError('WORKBOOK_ENCRYPTED', 'is encrypted (a password-protected archive): save it again without a password', { text: ENCRYPTED }),
        );
      declared += entry.uncompressedSize;
      if (declared > limits.maxUncompressedBytes) {
        return fail(
          new ConnectorError(
            'WORKBOOK_LIMIT_EXCEEDED',
            `would inflate past ${limits.maxUncompressedBytes} bytes (xlsx.maxUncompressedBytes; its parts declare at least ${declared}): refused unread`,
            { text: { key: 'workbookInflates', params: { limit: limits.maxUncompressedBytes, setting: 'xlsx.maxUncompressedBytes', declared } } },
          ),
        );
      }
      const key = entry.fileName.toLowerCase();
      if (entries.has(key)) {
        const said = `it holds the part ${entry.fileName} twice`;
        return fail(new ConnectorError('FILE_UNREADABLE', `is a damaged xlsx workbook: ${said}`, { text: { key: 'workbookDamaged', params: { said } } }));
      }
      entries.set(key, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
  return entries;
}

/**
 * What went wrong in the archive, as the connector's error: an entry that inflated past its
 * declared size is a limit (a zip bomb that lies about its sizes), encryption is encryption, and
 * anything else about the container is a damaged or truncated file.
 */
export function archiveError(error: unknown, part?: string): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const where = part === undefined ? '' : ` (part ${part})`;
  const zip = isConnectorError(error) ? error.details.zip : undefined;
  if (isConnectorError(error) && zip === undefined) return error;
  if (zip === 'inflates past its size' || message.startsWith('too many bytes in the stream')) {
    return new ConnectorError(
      'WORKBOOK_LIMIT_EXCEEDED',
      `has a part that inflates past the size it declares${where}: refused as a zip bomb or a damaged file`,
      { cause: error, text: { key: 'workbookBomb' } },
    );
  }
  if (message.includes('encrypt')) {
    return new ConnectorError('WORKBOOK_ENCRYPTED', 'is encrypted (a password-protected archive): save it again without a password', {
      cause: error,
      text: ENCRYPTED,
    });
  }
  // A system error while reading (EIO…); a damaged entry (`zip === 'damaged'`) is worded below.
  const code = zip === undefined ? (error as NodeJS.ErrnoException).code : undefined;
  if (code !== undefined && !code.startsWith('Z_') && code !== 'ERR_STREAM_PREMATURE_CLOSE') {
    return cannotReadFile(error);
  }
  return new ConnectorError('FILE_UNREADABLE', `is not a complete xlsx workbook (truncated?)${where}: ${message}`, {
    cause: error,
    text: { key: 'workbookIncomplete', params: { said: `${part === undefined ? '' : `${part}: `}${message}` } },
  });
}
