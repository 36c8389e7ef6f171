/** yauzl's random access over a FileHandle the caller owns: the handle intake hashed and claimed, never the path opened again. */
import yauzl from 'yauzl';
import { readFully, type InputHandle } from '../../../shared/input-file.js';

/**
 * yauzl's positional reads of the directory, done on the InputHandle. Closing is the caller's: the
 * handle is theirs. Entries' data is read by `inflateEntry`, not through yauzl's read streams.
 */
export class HandleReader extends yauzl.RandomAccessReader {
  constructor(private readonly handle: InputHandle) {
    super();
  }

  // yauzl reads the directory with many small reads: done directly, not through a stream each.
  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead?: number) => void): void {
    readFully(this.handle, buffer, offset, length, position).then(
      (bytesRead) => callback(null, bytesRead),
      (error: unknown) => callback(error as Error),
    );
  }

  override close(callback: (err: Error | null) => void): void {
    setImmediate(() => callback(null));
  }
}
