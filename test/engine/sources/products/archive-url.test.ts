import { test } from 'node:test';
import assert from 'node:assert/strict';
import { archiveUrl, mirrorPath } from '../../../../src/engine/sources/products/archive-url.ts';

test('archive mirror paths keep the host and path and fold a query into the last segment', () => {
  assert.equal(mirrorPath('https://copernicus-dem-30m.s3.amazonaws.com/a/b.tif'), 'copernicus-dem-30m.s3.amazonaws.com/a/b.tif');
  assert.equal(mirrorPath('https://ies-ows.jrc.ec.europa.eu/iforce/tmf_v1/download.py?type=tile&dataset=DeforestationYear&lat=N10&lon=W10'),
    'ies-ows.jrc.ec.europa.eu/iforce/tmf_v1/download.py/type=tile&dataset=DeforestationYear&lat=N10&lon=W10');
  assert.equal(mirrorPath('https://libdrive.ethz.ch/index.php/s/x/download?path=%2F3deg_cogs&files=a.tif'), 'libdrive.ethz.ch/index.php/s/x/download/path=_3deg_cogs&files=a.tif');
  assert.equal(archiveUrl('https://h.org/p/q.tif', {}), 'https://h.org/p/q.tif');
  assert.equal(archiveUrl('https://h.org/p/q.tif', { root: 'file:///data/archive/' }), 'file:///data/archive/h.org/p/q.tif');
  assert.equal(archiveUrl('https://h.org/api?sql=a%20b', { root: 'http://127.0.0.1:9' }, { api: true }), 'http://127.0.0.1:9/h.org/api?sql=a%20b');
});
