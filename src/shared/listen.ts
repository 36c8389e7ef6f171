/**
 * The one way a server of ours starts listening: on its host and port, and, when it cannot, an
 * error that names the setting that owns the port (`webhook.port 8080 on 127.0.0.1 is in use by
 * another program…`), not a bare `EADDRINUSE`. The webhook listener, the console and metrics
 * listener and the sandbox all start through it.
 */
import type { Server } from 'node:net';
import { ConnectorError } from '../errors.js';

/** Where a server listens, and the setting that says so (`webhook.port`, `metrics.port`, `--port`). */
export interface ListenAddress {
  host: string;
  port: number;
  /** The setting that owns the port, named in the error. */
  key: string;
}

/** Listen on `address`; rejects with `PORT_UNAVAILABLE` naming `address.key` when the address cannot be bound. */
export function listenOn(server: Server, address: ListenAddress): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(portUnavailable(error, address));
    server.once('error', failed);
    server.listen(address.port, address.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** Why an address could not be bound, in the words of its setting. Pure. */
export function portUnavailable(error: NodeJS.ErrnoException, address: ListenAddress): Error {
  const where = `${address.key} ${address.port} on ${address.host}`;
  const hostKey = address.key.endsWith('.port') ? `${address.key.slice(0, -'.port'.length)}.host` : 'the host';
  const reasons: Record<string, string> = {
    EADDRINUSE: `${where} is in use by another program (or another daemon on this machine): stop it, or set ${address.key} to a free port (\`ss -ltnp 'sport = :${address.port}'\` names the program)`,
    EACCES: `${where} needs privileges this service has not (ports below 1024): set ${address.key} to 1024 or above, or give the unit AmbientCapabilities=CAP_NET_BIND_SERVICE`,
    EADDRNOTAVAIL: `${where}: ${address.host} is not an address of this machine: set ${hostKey} to one of its addresses (127.0.0.1, 0.0.0.0 for every one)`,
  };
  const reason = error.code === undefined ? undefined : reasons[error.code];
  if (reason === undefined) return error;
  return new ConnectorError('PORT_UNAVAILABLE', `${reason} (${error.code})`, {
    cause: error,
    details: { key: address.key, port: address.port, host: address.host, errno: error.code },
  });
}
