/**
 * Over https the attempt connects to the address the guard checked, yet names the host in TLS
 * (SNI) and in Host, and verifies the receiver's certificate against that name.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import os from 'node:os';
import path from 'node:path';
import { runFixture } from '../support/processes.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/webhook-attempt-process.ts');
const HOST = 'hooks.example.test';

describe('a webhook attempt over https', () => {
  let dir: string;
  let server: Server;
  let port: number;
  const seen: { servername: string | false | null; host: string | undefined }[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-webhook-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=DNS:${HOST}`], { stdio: 'ignore' });
    server = createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
      seen.push({ servername: (req.socket as TLSSocket).servername, host: req.headers.host });
      req.resume().on('end', () => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const attempt = async (url: string, trust: boolean) => {
    const env: Record<string, string> = { HOST, URL: url };
    if (trust) env.NODE_EXTRA_CA_CERTS = path.join(dir, 'cert.pem');
    const [result] = await runFixture(FIXTURE, 'attempt', env).done;
    return result as { delivered: boolean; statusCode: number | null; error: string | null };
  };

  test('names the host in SNI and Host while connecting to the checked address, and delivers', async () => {
    const result = await attempt(`https://${HOST}:${port}/in`, true);
    assert.equal(result.delivered, true, result.error ?? '');
    assert.deepEqual(seen.at(-1), { servername: HOST, host: `${HOST}:${port}` });
  });

  test('refuses a certificate it cannot verify for the name', async () => {
    const before = seen.length;
    const result = await attempt(`https://${HOST}:${port}/in`, false);
    assert.equal(result.delivered, false);
    assert.equal(result.statusCode, null);
    assert.match(result.error!, /certificate/i);
    assert.equal(seen.length, before, 'nothing reached the receiver');
  });
});
