import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openByteSource } from '../../../../src/engine/sources/byte-source.ts';
import { openCog } from '../../../../src/engine/sources/cog.ts';
import { buildingCellsOf } from '../../../../src/engine/sources/products/open-buildings/cells.ts';
import { CELL_SUMS } from '../../../../src/engine/kernels/building-cells.ts';
import { readCogWindow } from '../../../support/read-windows.ts';
import { pattern, pythonWithGdal, tempDir, writeGdalCog } from '../gdal-fixtures.ts';

// GDAL's own 2 m cells of the same file: average presence, summed count and greatest height over
// each cell's pixels with data (its resampling skips nodata), nodata where a cell has none.
const GDAL_CELLS = String.raw`
import json, sys
from osgeo import gdal
gdal.UseExceptions()
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
out = {}
for band, alg in ((1, 'sum'), (2, 'max'), (3, 'average')):
    ds = gdal.Warp('', path, format='MEM', width=w, height=h, resampleAlg=alg)
    b = ds.GetRasterBand(band)
    nd = b.GetNoDataValue()
    out[alg] = [None if v == nd else float(v) for v in b.ReadAsArray().astype(float).ravel().tolist()]
print(json.dumps(out))
`;

test('building cells read through the file\'s cell grid agree with GDAL\'s own resampling of the same file', async () => {
  using dir = tempDir('ob-cells-');
  // 600 × 520 pixels of 0.5 m in 256-pixel tiles (edge tiles padded), three float bands, a patch of nodata.
  const W = 600;
  const H = 520;
  const noData = (x: number, y: number) => x >= 100 && x < 203 && y >= 40 && y < 90;
  const band = (f: (x: number, y: number) => number) => pattern((n) => new Float32Array(n), W, H, (x, y) => (noData(x, y) ? -99 : f(x, y)));
  const count = band((x, y) => ((x * 7 + y * 13) % 11) / 500);
  const height = band((x, y) => ((x >> 3) + (y >> 4)) % 23);
  const presence = band((x, y) => ((x * 3 + y * 5) % 17) / 16);
  const path = writeGdalCog(join(dir.path, 'buildings.tif'), {
    width: W, height: H, bands: [count, height, presence], epsg: 32647, geoTransform: [500000, 0.5, 0, 1000000, 0, -0.5], nodata: -99, predictor: 'FLOATING_POINT', blockSize: 256,
  });
  const view = buildingCellsOf(await openCog(openByteSource(path)), 4);
  assert.ok(view !== null);
  const cells = await readCogWindow(view, { x0: 0, y0: 0, width: W / 4, height: H / 4 });
  const gdal = JSON.parse(execFileSync(pythonWithGdal(), ['-c', GDAL_CELLS, path, String(W / 4), String(H / 4)], { encoding: 'utf8' })) as Record<'sum' | 'max' | 'average', Array<number | null>>;
  let withData = 0;
  for (let c = 0; c < (W / 4) * (H / 4); c++) {
    const [presenceSum, seen, countSum, tallest] = cells.raw.subarray(c * CELL_SUMS, (c + 1) * CELL_SUMS);
    if (gdal.average[c] === null) {
      assert.equal(seen, 0, `cell ${c}: GDAL reads no data`);
      continue;
    }
    withData++;
    assert.ok(seen > 0, `cell ${c}: GDAL reads data`);
    assert.ok(Math.abs(presenceSum / seen - gdal.average[c]!) < 1e-5, `cell ${c}: mean presence ${presenceSum / seen} against ${gdal.average[c]}`);
    assert.ok(Math.abs(countSum - gdal.sum[c]!) < 1e-5, `cell ${c}: count ${countSum} against ${gdal.sum[c]}`);
    assert.equal(tallest, gdal.max[c], `cell ${c}: height`);
  }
  // The patch's cells partly of no data are among those compared: its edges do not fall on cell edges.
  assert.ok(withData > 0.9 * (W / 4) * (H / 4));
});
