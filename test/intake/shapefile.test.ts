import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { parseShapefileZip } from '../../src/intake/shapefile.ts';
import { DEFAULT_CAPS, MAX_ZIP_EXPANDED_BYTES, type IntakeCaps } from '../../src/intake/limits.ts';
import { writeShapefile, type ShapefileRecord } from '../fixtures/shapefile.ts';
import { declaringSize } from '../support/hostile-files.ts';

const UTM_32N =
  'PROJCS["WGS_1984_UTM_Zone_32N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",9.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
const WGS84 =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

/** A clockwise square (a shapefile's outer ring) of side `d` at (x, y). */
const square = (x: number, y: number, d: number): [number, number][] => [
  [x, y],
  [x, y + d],
  [x + d, y + d],
  [x + d, y],
  [x, y],
];

const records: ShapefileRecord[] = [
  { shape: { rings: [square(-1.5, 6.5, 0.001)] }, properties: { ref: 'A-1', commodity: 'cocoa', area_ha: 1.2 } },
  { shape: { rings: [square(-1.6, 6.6, 0.002)] }, properties: { ref: 'A-2', commodity: 'cocoa', area_ha: 4.9 } },
];

function zip(files: Record<string, Uint8Array>): Uint8Array {
  return zipSync(files);
}

async function refusal(bytes: Uint8Array): Promise<{ code: string; message: string }> {
  try {
    await parseShapefileZip(bytes);
  } catch (error) {
    return error as { code: string; message: string };
  }
  assert.fail('the file was read');
}

test('reads a zipped shapefile with its properties and says when there is no .prj', async () => {
  const { shp, shx, dbf } = writeShapefile(records);
  const parsed = await parseShapefileZip(zip({ 'plots.shp': shp, 'plots.shx': shx, 'plots.dbf': dbf }));
  assert.equal(parsed.format, 'shapefile');
  assert.equal(parsed.plots.length, 2);
  assert.deepEqual(parsed.plots[1].properties, { ref: 'A-2', commodity: 'cocoa', area_ha: 4.9 });
  assert.deepEqual((parsed.plots[0].geometry as { coordinates: unknown }).coordinates, [square(-1.5, 6.5, 0.001)]);
  assert.ok(parsed.plots.every((p) => p.orientationByFormat));
  assert.ok(parsed.notes.some((n) => n.includes('no .prj')));
});

test('keeps WGS84 coordinates bit for bit when the .prj names WGS84', async () => {
  const { shp, shx, dbf } = writeShapefile(records);
  const parsed = await parseShapefileZip(zip({ 'p.shp': shp, 'p.shx': shx, 'p.dbf': dbf, 'p.prj': strToU8(WGS84) }));
  assert.deepEqual((parsed.plots[0].geometry as { coordinates: unknown }).coordinates, [square(-1.5, 6.5, 0.001)]);
  assert.deepEqual(parsed.notes, []);
});

test('reprojects from the .prj to WGS84 (UTM 32N, easting 500 km lies on 9 degrees east)', async () => {
  const { shp, shx, dbf } = writeShapefile([{ shape: { point: [500000, 5000000] }, properties: { ref: 'U' } }]);
  const parsed = await parseShapefileZip(zip({ 'u.shp': shp, 'u.shx': shx, 'u.dbf': dbf, 'u.prj': strToU8(UTM_32N) }));
  const [lon, lat] = (parsed.plots[0].geometry as { coordinates: [number, number] }).coordinates;
  assert.ok(Math.abs(lon - 9) < 1e-9, `longitude ${lon}`);
  // 5,000 km of northing at scale 0.9996 on the central meridian is 45.1535 degrees on WGS84.
  assert.ok(Math.abs(lat - 45.15348) < 1e-4, `latitude ${lat}`);
  assert.ok(parsed.notes.some((n) => n.includes('converted from WGS_1984_UTM_Zone_32N')));
});

test('refuses a .prj naming a geocentric system (+proj=geocent) with unsupported_crs, naming the .prj', async () => {
  const { shp, shx, dbf } = writeShapefile([{ shape: { point: [6378137, 0] }, properties: { ref: 'G' } }]);
  await assert.rejects(
    parseShapefileZip(zip({ 'g.shp': shp, 'g.shx': shx, 'g.dbf': dbf, 'g.prj': strToU8('+proj=geocent +datum=WGS84 +units=m +no_defs') })),
    (error: { code?: string; message: string }) => error.code === 'unsupported_crs' && /g\.prj names a geocentric/.test(error.message),
  );
});

test('reads the .dbf in the encoding its .cpg names', async () => {
  const { shp, shx, dbf } = writeShapefile([{ shape: { point: [-1.5, 6.5] }, properties: { producer: 'Coopérative Éclair' } }]);
  const parsed = await parseShapefileZip(zip({ 'c.shp': shp, 'c.shx': shx, 'c.dbf': dbf, 'c.cpg': strToU8('UTF-8') }));
  assert.equal(parsed.plots[0].properties.producer, 'Coopérative Éclair');
});

test('reads the real whisp shapefile zip: 31 polygons, no .prj', async () => {
  const parsed = await parseShapefileZip(readFileSync('../shared/refdata/plots/whisp/shapefile_example.zip'));
  assert.equal(parsed.plots.length, 31);
  assert.ok(parsed.plots.every((p) => ['Polygon', 'MultiPolygon'].includes((p.geometry as { type: string }).type)));
  assert.ok(parsed.notes.some((n) => n.includes('no .prj')));
});

test('refuses a .shx whose offsets do not match the .shp with bad_shapefile', async () => {
  const { shp, shx, dbf } = writeShapefile(records);
  shx.writeInt32BE(shx.readInt32BE(108) + 4, 108); // record 2 placed 8 bytes off
  const error = await refusal(zip({ 'b.shp': shp, 'b.shx': shx, 'b.dbf': dbf }));
  assert.equal(error.code, 'bad_shapefile');
  assert.match(error.message, /offsets are broken/);
});

test('refuses a .shp record claiming more than its shape takes (here past the file) with bad_shapefile, as it inflates', async () => {
  const { shp, dbf } = writeShapefile(records);
  shp.writeInt32BE(100_000, 104); // record 1 claims 200 kB
  const error = await refusal(zip({ 'b.shp': shp, 'b.dbf': dbf }));
  assert.equal(error.code, 'bad_shapefile');
  assert.match(error.message, /Record 1 of b\.shp claims 200000 bytes of content, where its shape type 5 and its 5 point\(s\) take 128\./);
});

test('refuses a truncated .shp and a .dbf whose count differs', async () => {
  const { shp, shx, dbf } = writeShapefile(records);
  const truncated = await refusal(zip({ 't.shp': shp.subarray(0, shp.length - 10), 't.dbf': dbf }));
  assert.equal(truncated.code, 'bad_shapefile');
  assert.match(truncated.message, /truncated/);
  dbf.writeUInt32LE(3, 4);
  const miscounted = await refusal(zip({ 'm.shp': shp, 'm.shx': shx, 'm.dbf': dbf }));
  assert.equal(miscounted.code, 'bad_shapefile');
  assert.match(miscounted.message, /holds 3 records but the \.shp holds 2/);
});

test('refuses a zip without a .shp, and bytes that are no zip', async () => {
  const noShp = await refusal(zip({ 'readme.txt': strToU8('plots') }));
  assert.equal(noShp.code, 'bad_shapefile');
  assert.match(noShp.message, /no \.shp.*readme\.txt/);
  const notZip = await refusal(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
  assert.equal(notZip.code, 'bad_zip');
});

test('refuses a zip declaring more expanded bytes than the bound with zip_too_large, before inflating', async () => {
  const { shp } = writeShapefile(records);
  const error = await refusal(declaringSize(zip({ 'z.shp': shp }), MAX_ZIP_EXPANDED_BYTES + 1));
  assert.equal(error.code, 'zip_too_large');
});

test('refuses an entry that inflates past its declared size with bad_zip', async () => {
  const padded = new Uint8Array(1_000_000); // compresses to a few kB, as a zip bomb's payload does
  const error = await refusal(declaringSize(zip({ 'z.shp': padded }), 1000));
  assert.equal(error.code, 'bad_zip');
});

test('reads every layer of a zip holding two', async () => {
  const a = writeShapefile(records);
  const b = writeShapefile([{ shape: { point: [-1.5, 6.5] }, properties: { ref: 'P' } }]);
  const parsed = await parseShapefileZip(zip({ 'a/one.shp': a.shp, 'a/one.dbf': a.dbf, 'two.shp': b.shp, 'two.dbf': b.dbf }));
  assert.deepEqual(parsed.plots.map((p) => p.properties.ref), ['A-1', 'A-2', 'P']);
  assert.deepEqual(parsed.plots.map((p) => p.index), [0, 1, 2]);
});

test('refuses a record over the part or point caps from its header, naming the cap', async () => {
  const { shp, shx, dbf } = writeShapefile(records);
  const over = async (caps: Partial<IntakeCaps>) => {
    try {
      await parseShapefileZip(zip({ 'plots.shp': shp, 'plots.shx': shx, 'plots.dbf': dbf }), { ...DEFAULT_CAPS, ...caps });
    } catch (error) {
      return error as { code: string; message: string };
    }
    assert.fail('the file was read');
  };
  assert.equal((await parseShapefileZip(zip({ 'plots.shp': shp, 'plots.shx': shx, 'plots.dbf': dbf }), { ...DEFAULT_CAPS, verticesPerPlot: 5 })).plots.length, 2);
  const points = await over({ verticesPerPlot: 4 });
  assert.equal(points.code, 'geometry_too_complex');
  assert.match(points.message, /Record 1 of plots\.shp has 5 points.*4 \(MAX_VERTICES_PER_PLOT\)/);
  const parts = await over({ partsPerPlot: 0 });
  assert.match(parts.message, /Record 1 of plots\.shp has 1 parts.*0 \(MAX_PARTS_PER_PLOT\)/);
  const file = await over({ verticesPerFile: 9 });
  assert.equal(file.code, 'too_many_vertices');
  assert.match(file.message, /9 \(MAX_VERTICES_PER_FILE\)/);
});

test('refuses a .dbf whose inflated size its header does not account for, and a .shx declaring more records than an import takes', async () => {
  const { shp, shx, dbf } = writeShapefile(records);
  const padded = Buffer.concat([dbf, Buffer.alloc(128 * 1024)]);
  const dbfError = await refusal(zip({ 'plots.shp': shp, 'plots.shx': shx, 'plots.dbf': padded }));
  assert.equal(dbfError.code, 'bad_shapefile');
  assert.match(dbfError.message, /plots\.dbf: its header accounts for \d+ bytes but the zip declares \d+/);
  const longShx = Buffer.concat([shx, Buffer.alloc(8 * 100_000)]);
  assert.equal((await refusal(zip({ 'plots.shp': shp, 'plots.shx': longShx, 'plots.dbf': dbf }))).code, 'too_many_plots');
});
