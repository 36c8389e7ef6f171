/** Raw sockets for the listener tests: bytes no HTTP client would send, and connections held open. */
import net from 'node:net';
import type { DestinationStream } from 'pino';
import { createLogger, type Logger } from '../../src/log.js';

/** Send `bytes` on a new connection and collect everything answered until the server closes it. */
export function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export interface HeldConnection {
  /** What the server answered so far. */
  readonly received: string;
  /** Whether the server closed (or reset) the connection. */
  readonly closed: boolean;
  close(): Promise<void>;
}

/** Open a connection and send `bytes` on it, keeping it open. */
export function holdConnection(url: string, bytes: string): HeldConnection {
  const { hostname, port } = new URL(url);
  let received = '';
  let closed = false;
  const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(bytes));
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  const gone = new Promise<void>((resolve) => socket.on('close', () => ((closed = true), resolve())));
  return {
    get received() {
      return received;
    },
    get closed() {
      return closed;
    },
    async close() {
      socket.destroy();
      await gone;
    },
  };
}

/** A real pino logger whose JSON lines the test can read. */
export function captureLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const destination: DestinationStream = { write: (line: string) => void written.push(line) };
  const logger = createLogger({ level: 'debug', destination });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
