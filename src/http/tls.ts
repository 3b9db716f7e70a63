/**
 * HTTPS as v1.50 serves it (option.rs `get_ssl_config`): only when both `--ssl-cert-path` and
 * `--ssl-key-path` are given (one alone serves plain HTTP, as v1.50 does). `--ssl-auth-path` asks
 * clients for a certificate signed by one of its roots: required with `--ssl-require-auth`, else
 * optional, but a certificate presented must verify (rustls' `allow_unauthenticated`).
 * `--ssl-ocsp-path` staples its DER response. Without `--ssl-tickets` no TLS 1.2 ticket is issued;
 * sessions resume by id either way (rustls keeps 256 by default too, so `--ssl-resumption`
 * changes nothing there either). With `SSLKEYLOGFILE` set, session keys are appended to that file
 * (rustls' `KeyLogFile`). A file that cannot be read, a key that is not the certificate's or an
 * auth file without a certificate stops the start, with v1.50's messages.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { constants, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { createSecureContext, type TLSSocket, type TlsOptions } from 'node:tls';
import type { Server } from 'node:https';
import type { Config } from '../config/index.js';

/** A TLS setting that stops the start (printed as `Error: <message>`, as v1.50's anyhow error). */
export class TlsSetupError extends Error {
  override name = 'TlsSetupError';
}

type TlsConfig = Pick<Config, 'sslCertPath' | 'sslKeyPath' | 'sslAuthPath' | 'sslOcspPath' | 'sslRequireAuth' | 'sslTickets'>;

/** What the server is set up with: the options of `https.createServer`, and the OCSP response to staple. */
export interface HttpsSetup {
  readonly options: TlsOptions;
  readonly ocsp: Buffer | null;
}

function read(path: string, openError: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    throw new TlsSetupError(openError);
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;

/**
 * Whether the key is the one of the chain's first certificate, as rustls checks when it is
 * configured (`CertifiedKey::keys_match`). OpenSSL checks it only when both are of one type:
 * an RSA key beside an EC certificate started a server whose every handshake failed.
 */
function keyFitsCertificate(key: Buffer, cert: Buffer): boolean {
  const spki = (publicKey: KeyObject) => publicKey.export({ type: 'spki', format: 'der' });
  return spki(createPublicKey(createPrivateKey(key))).equals(spki(new X509Certificate(cert).publicKey));
}

/** The HTTPS setup `config` asks for, or null for plain HTTP. */
export function httpsSetup(config: TlsConfig): HttpsSetup | null {
  if (config.sslCertPath === null || config.sslKeyPath === null) return null;
  const options: TlsOptions = {
    cert: read(config.sslCertPath, 'cannot open certificate file'),
    key: read(config.sslKeyPath, 'cannot open private key file'),
  };
  if (config.sslAuthPath !== null) {
    options.ca = read(config.sslAuthPath, 'cannot open certificate file');
    // rustls' client verifier refuses to be built without a root (its VerifierBuilderError)
    if (!PEM_CERTIFICATE.test(options.ca.toString('latin1'))) throw new TlsSetupError('no root trust anchors were provided');
    options.requestCert = true;
    options.rejectUnauthorized = config.sslRequireAuth;
  }
  if (!config.sslTickets) options.secureOptions = constants.SSL_OP_NO_TICKET;
  try {
    createSecureContext(options);
  } catch {
    throw new TlsSetupError('bad certificates/private key');
  }
  if (!keyFitsCertificate(options.key as Buffer, options.cert as Buffer)) throw new TlsSetupError('bad certificates/private key');
  const ocsp = config.sslOcspPath === null ? null : read(config.sslOcspPath, 'cannot open ocsp file');
  return { options, ocsp };
}

/** What the TLS server does besides its options: staple, check optional client certificates, log keys. */
export function attachTls(server: Server, setup: HttpsSetup, keyLogFile: string | undefined): void {
  const { ocsp } = setup;
  if (ocsp !== null) server.on('OCSPRequest', (_certificate: Buffer, _issuer: Buffer, done: (err: Error | null, response: Buffer) => void) => done(null, ocsp));
  if (setup.options.requestCert === true && setup.options.rejectUnauthorized === false) {
    server.on('secureConnection', (socket: TLSSocket) => {
      // no certificate is fine; one that does not verify is refused
      if (!socket.authorized && Object.keys(socket.getPeerCertificate()).length > 0) socket.destroy();
    });
  }
  if (keyLogFile !== undefined && keyLogFile !== '') server.on('keylog', (line: Buffer) => appendFileSync(keyLogFile, line));
}
