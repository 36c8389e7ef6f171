/** Self-signed certificates made by the test with the system's openssl, for the HTTPS listener. */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import tls from 'node:tls';

export interface TestCertificate {
  cert: string;
  key: string;
  certFile: string;
  keyFile: string;
  /** SHA-256 fingerprint as Node prints it (`AB:CD:…`). */
  fingerprint256: string;
}

/** A one-day self-signed certificate for 127.0.0.1 and localhost, written to `<dir>/<name>.{crt,key}`. */
export function makeCertificate(dir: string, name: string): TestCertificate {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  execFileSync(
    '/usr/bin/openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  const cert = fs.readFileSync(certFile, 'utf8');
  return { cert, key: fs.readFileSync(keyFile, 'utf8'), certFile, keyFile, fingerprint256: new X509Certificate(cert).fingerprint256 };
}

/** The fingerprint of the certificate a new connection to `url` is served. */
export function servedFingerprint(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

/** Try a handshake offering TLS 1.1 only; resolves with the error code, or 'connected'. */
export function handshakeWithTls11(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    // SECLEVEL=0 lets this client's OpenSSL offer TLS 1.1 at all.
    const socket = tls.connect(
      { host: hostname, port: Number(port), minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0', rejectUnauthorized: false },
      () => {
        resolve('connected');
        socket.destroy();
      },
    );
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** GET `pathname` over HTTPS trusting `ca` (verification on). */
export function httpsGet(url: string, pathname: string, ca: string): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  target.pathname = pathname;
  return new Promise((resolve, reject) => {
    const req = https.get(target, { ca, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

/** Two certificates and the files a config names (`webhook.crt`, `webhook.key`), holding the first. */
export interface RenewableCertificate {
  first: TestCertificate;
  second: TestCertificate;
  certFile: string;
  keyFile: string;
  /** Put the second pair in place, as an operator renewing the certificate does. */
  renew(): void;
}

export function renewableCertificate(dir: string): RenewableCertificate {
  const first = makeCertificate(dir, 'first');
  const second = makeCertificate(dir, 'second');
  const certFile = path.join(dir, 'webhook.crt');
  const keyFile = path.join(dir, 'webhook.key');
  fs.copyFileSync(first.certFile, certFile);
  fs.copyFileSync(first.keyFile, keyFile);
  return {
    first,
    second,
    certFile,
    keyFile,
    renew: () => {
      fs.copyFileSync(second.certFile, certFile);
      fs.copyFileSync(second.keyFile, keyFile);
    },
  };
}
