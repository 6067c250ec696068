/**
 * `npm run --silent verify -- evidence.json [plot.geojson] --key public-key.json`: checks a stored
 * evidence answer without the service (src/engine/verify-evidence.ts). The key is the service's
 * published one, as `GET /api/v1/evidence/public-key` answers it (JSON) or its PEM alone. Exits 0
 * when every check holds, 1 when one fails, 2 on a usage error.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { verifyEvidence } from './engine/verify-evidence.ts';

const USAGE = 'usage: npm run --silent verify -- <evidence.json> [<plot.geojson>] --key <public-key.json|public-key.pem>';

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { key: { type: 'string' } } });
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`, 2);
}
const [evidenceFile, boundaryFile, ...extra] = parsed.positionals;
if (evidenceFile === undefined || extra.length > 0 || parsed.values.key === undefined) fail(USAGE, 2);

const readJson = (file: string, what: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return fail(`${what} ${file} could not be read as JSON: ${(err as Error).message}`, 2);
  }
};

const keyText = readFileSync(parsed.values.key, 'utf8');
const publicKeyPem = keyText.trimStart().startsWith('{') ? (JSON.parse(keyText) as { public_key_pem: string }).public_key_pem : keyText;
try {
  const checks = verifyEvidence(readJson(evidenceFile, 'the evidence') as Record<string, unknown>, publicKeyPem, boundaryFile === undefined ? undefined : readJson(boundaryFile, 'the boundary'));
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.said}`);
  process.exit(checks.every((c) => c.ok) ? 0 : 1);
} catch (err) {
  fail((err as Error).message, 2);
}
