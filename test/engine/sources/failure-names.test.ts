/**
 * A failed read's message names what was read (the product, its tile or scene and layer), never where
 * the file lies: the message reaches the register, a 409 and the `plot.evidence.failed` webhook.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { failureReason } from '../../../src/reading-service/job-runner.ts';
import { isSourceError } from '../../../src/engine/sources/errors.ts';
import { archiveUrl } from '../../../src/engine/sources/products/archive-url.ts';
import { hansenHref } from '../../../src/engine/sources/products/hansen/codes.ts';
import { createHansenAdapter } from '../../../src/engine/sources/products/hansen/reader.ts';
import { openStaticCatalogue } from '../../../src/engine/sources/stac.ts';

const root = mkdtempSync(join(tmpdir(), 'pce-failure-names-'));
after(() => rmSync(root, { recursive: true, force: true }));
const where = { root: pathToFileURL(root).href };
/** A box in Hansen's tile 10N_020W. */
const BOX: [number, number, number, number] = [-15.01, 5.0, -15.0, 5.01];

function assertNoPath(message: string) {
  assert.ok(!message.includes(root), `the message names the archive's folder: ${message}`);
  assert.doesNotMatch(message, /file:\/\/|\/tmp\/|\/work\//, message);
}

test('a tile missing from the archive is named by product, tile and layer, never by its path', async () => {
  await assert.rejects(createHansenAdapter({ where }).windows(BOX, ['lossyear']), (err: unknown) => {
    assert.ok(isSourceError(err, 'not_found'));
    assert.match(err.message, /Hansen\/UMD Global Forest Change lossyear .*tile 10N_020W, layer lossyear does not exist in the archive/);
    assertNoPath(err.message);
    assertNoPath(failureReason(err));
    assert.ok(err.url?.includes(root), 'the address stays on the error for the logs');
    return true;
  });
});

test('a damaged tile is named the same way', async () => {
  const file = new URL(archiveUrl(hansenHref('treecover2000', '10N_020W'), where));
  mkdirSync(dirname(file.pathname), { recursive: true });
  writeFileSync(file, Buffer.from('II*\0 not the rest of a TIFF'));
  await assert.rejects(createHansenAdapter({ where }).windows(BOX, ['treecover2000']), (err: unknown) => {
    assert.ok(isSourceError(err, 'invalid_tiff'));
    assert.match(err.message, /^Hansen\/UMD Global Forest Change treecover2000 .*tile 10N_020W, layer treecover2000: /);
    assertNoPath(failureReason(err));
    return true;
  });
});

test('a scene catalogue that cannot be read says so without its folder', async () => {
  const missing = join(root, 'no-catalogue');
  await assert.rejects(openStaticCatalogue(missing).matching({ collections: ['x'], bbox: BOX, datetime: '2020-01-01T00:00:00Z/2020-12-31T23:59:59Z' }), (err: unknown) => {
    assert.ok(isSourceError(err, 'not_found'));
    assertNoPath(failureReason(err));
    return true;
  });
  mkdirSync(missing);
  writeFileSync(join(missing, 'item.json'), '{not json');
  await assert.rejects(openStaticCatalogue(missing).matching({ collections: ['x'], bbox: BOX, datetime: '2020-01-01T00:00:00Z/2020-12-31T23:59:59Z' }), (err: unknown) => {
    assert.match((err as Error).message, /the catalogue's file item\.json is not JSON/);
    assertNoPath(failureReason(err));
    return true;
  });
});

test('a failure of the service\'s own files gives its code, not the path Node quotes', () => {
  const err = Object.assign(new Error(`ENOENT: no such file or directory, open '${root}/x.tif'`), { code: 'ENOENT', syscall: 'open', path: `${root}/x.tif` });
  assert.equal(failureReason(err), 'The read could not be completed: a file of the service could not be used (ENOENT)');
});
