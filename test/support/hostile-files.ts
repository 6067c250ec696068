/**
 * The uploads a hostile client sends (issue 11), one builder per attack, each answering the bytes
 * and the file name to send them under. Shared by the hostile-input bench and the tests that assert
 * each attack's refusal, so both send the same bytes. Coordinates lie in southern Ghana.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { header } from '../fixtures/shapefile.ts';

export interface HostileFile {
  bytes: Buffer;
  filename: string;
}

const LON = -1.6;
const LAT = 6.7;
const coord = (lon: number, lat: number) => `[${lon.toFixed(6)},${lat.toFixed(6)}]`;

function featureCollection(geometries: string[], properties: Record<string, unknown>[] = []): Buffer {
  const features = geometries.map((g, i) => `{"type":"Feature","properties":${JSON.stringify(properties[i] ?? { ref: `H-${i + 1}` })},"geometry":${g}}`);
  return Buffer.from(`{"type":"FeatureCollection","features":[${features.join(',')}]}`);
}

const polygon = (ring: string[]) => `{"type":"Polygon","coordinates":[[${ring.join(',')}]]}`;

/** A CSV of one data row whose last field is a number and then `quotes` double quotes (80,000: 80 KB): each quote is a bad quote in an unquoted field. */
export function quoteStormCsv(quotes = 80_000): HostileFile {
  return { bytes: Buffer.from(`ref,lon,lat\nQ-1,${LON},${LAT}${'"'.repeat(quotes)}\n`), filename: 'quotes.csv' };
}

/**
 * A self-crossing "comb" (1,201 vertices, about 25 KB, at 300 teeth): the ring zigzags right in
 * `teeth` teeth the full height of a square, then zigzags down in as many teeth the full width of
 * it, so every edge of the second comb crosses every edge of the first (about 360,000 crossings).
 */
export function combPolygonGeoJson(teeth = 300): HostileFile {
  const d = 0.01;
  const step = d / teeth;
  const ring: string[] = [];
  for (let i = 0; i < teeth; i++) ring.push(coord(LON + i * step, LAT), coord(LON + (i + 0.5) * step, LAT + d));
  for (let j = 0; j < teeth; j++) ring.push(coord(LON + 1.1 * d, LAT + d - j * step), coord(LON - 0.1 * d, LAT + d - (j + 0.5) * step));
  ring.push(ring[0]);
  return { bytes: featureCollection([polygon(ring)]), filename: 'comb.geojson' };
}

/** One ring that goes round the same square `turns` times (750 turns: 3,001 vertices, about 60 KB). */
export function retracedSquareGeoJson(turns = 750): HostileFile {
  const d = 0.01;
  const corners = [coord(LON, LAT), coord(LON + d, LAT), coord(LON + d, LAT + d), coord(LON, LAT + d)];
  const ring: string[] = [];
  for (let t = 0; t < turns; t++) ring.push(...corners);
  ring.push(corners[0]);
  return { bytes: featureCollection([polygon(ring)]), filename: 'retraced.geojson' };
}

/**
 * The ring of a star polygon {points/3}, 0.01 degrees across: each edge joins a vertex to the third
 * after it round a circle, so each crosses four others, 2 × `points` crossings in all (454 at 227
 * points), with `perEdge` vertices along every edge (at 440: 99,881 vertices, under every cap). The
 * repair's noding and rebuild of it take seconds, its crossings counted in milliseconds.
 */
export function selfCrossingStar(points = 227, perEdge = 440): [number, number][] {
  const corner = (k: number): [number, number] => {
    const a = (2 * Math.PI * ((3 * k) % points)) / points;
    return [LON + 0.01 * Math.cos(a), LAT + 0.01 * Math.sin(a)];
  };
  const ring: [number, number][] = [];
  for (let k = 0; k < points; k++) {
    const [x0, y0] = corner(k);
    const [x1, y1] = corner(k + 1);
    for (let j = 0; j < perEdge; j++) ring.push([x0 + ((x1 - x0) * j) / perEdge, y0 + ((y1 - y0) * j) / perEdge]);
  }
  ring.push(ring[0]);
  return ring;
}

/**
 * `plots` self-crossing stars (selfCrossingStar()) in one GeoJSON: nine of the full size make 22 MB,
 * the file of issue 29 that held a thread for minutes.
 */
export function selfCrossingStarsGeoJson(plots = 9, points = 227, perEdge = 440): HostileFile {
  // Eight decimals: cut to six, the points along an edge zigzag and cross their neighbours.
  const ring = selfCrossingStar(points, perEdge).map(([lon, lat]) => `[${lon.toFixed(8)},${lat.toFixed(8)}]`);
  return { bytes: featureCollection(Array.from({ length: plots }, () => polygon(ring))), filename: 'stars.geojson' };
}

/** One MultiPolygon of `parts` small disjoint squares on a grid (10,000 parts). */
export function manyPartsGeoJson(parts = 10_000): HostileFile {
  const side = Math.ceil(Math.sqrt(parts));
  const d = 0.0002;
  const squares: string[] = [];
  for (let i = 0; i < parts; i++) {
    const x = LON + (i % side) * 2 * d;
    const y = LAT + Math.floor(i / side) * 2 * d;
    squares.push(`[[${[coord(x, y), coord(x + d, y), coord(x + d, y + d), coord(x, y + d), coord(x, y)].join(',')}]]`);
  }
  return { bytes: featureCollection([`{"type":"MultiPolygon","coordinates":[${squares.join(',')}]}`]), filename: 'parts.geojson' };
}

/** A GeoJSON FeatureCollection whose `features` are `items` bare numbers, none a feature (12 M: 24 MB). */
export function nonFeatureGeoJson(items = 12_000_000): HostileFile {
  const head = Buffer.from('{"type":"FeatureCollection","features":[');
  const body = Buffer.alloc(items * 2 - 1, '1,');
  return { bytes: Buffer.concat([head, body, Buffer.from(']}')]), filename: 'items.geojson' };
}

/**
 * A cattle plot given as one point declaring `areaHa` hectares (1e9 ha: a read circle of 1,784 km
 * radius if the engine took it at its word). Cattle is exempt from the 4 ha point rule.
 */
export function cattlePointGeoJson(areaHa = 1e9, lon = LON, lat = LAT): HostileFile {
  const bytes = featureCollection([`{"type":"Point","coordinates":${coord(lon, lat)}}`], [{ ref: 'HERD-1', commodity: 'cattle', area_ha: areaHa }]);
  return { bytes, filename: 'herd.geojson' };
}

const SHP_HEADER = 100;
const POLYGON = 5;


/**
 * A zip of the given entries, each DEFLATEd at the strongest level (repeated bytes shrink about a
 * thousand times). Written here over node:zlib, which deflates 250 MB in seconds where fflate takes
 * a quarter of a minute; the headers are the plain ones every reader takes (no dates, no extras).
 */
function zipped(entries: Record<string, Uint8Array>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [path, data] of Object.entries(entries)) {
    const name = Buffer.from(path);
    const deflated = deflateRawSync(data, { level: 9 });
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    local.copy(central, 16, 14, 26);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A zipped shapefile of one polygon record holding one ring of `vertices` points (15 M: a 240 MB
 * .shp, its .shx beside it, about 1.6 MB zipped): a ring of 1,000 points round a circle, walked
 * again and again, so the whole file is real and consistent and its header declares the count.
 */
export function hugePolygonShapefileZip(vertices = 15_000_000): HostileFile {
  const content = 44 + 4 + 16 * vertices;
  const total = SHP_HEADER + 8 + content;
  const shp = Buffer.alloc(total);
  header(POLYGON, total).copy(shp, 0);
  shp.writeInt32BE(1, SHP_HEADER);
  shp.writeInt32BE(content / 2, SHP_HEADER + 4);
  const at = SHP_HEADER + 8;
  shp.writeInt32LE(POLYGON, at);
  [LON, LAT, LON + 0.01, LAT + 0.01].forEach((v, i) => shp.writeDoubleLE(v, at + 4 + 8 * i));
  shp.writeInt32LE(1, at + 36);
  shp.writeInt32LE(vertices, at + 40);
  shp.writeInt32LE(0, at + 44);
  const lap = Buffer.alloc(16 * 1000);
  for (let k = 0; k < 1000; k++) {
    const a = (2 * Math.PI * k) / 1000;
    lap.writeDoubleLE(LON + 0.005 * Math.cos(a), 16 * k);
    lap.writeDoubleLE(LAT + 0.005 * Math.sin(a), 16 * k + 8);
  }
  const points = at + 48;
  shp.fill(lap, points, total - 16);
  // The ring closes on its first point.
  lap.copy(shp, total - 16, 0, 16);
  const shx = Buffer.alloc(SHP_HEADER + 8);
  header(POLYGON, shx.length).copy(shx, 0);
  shx.writeInt32BE(SHP_HEADER / 2, SHP_HEADER);
  shx.writeInt32BE(content / 2, SHP_HEADER + 4);
  return { bytes: zipped({ 'plots.shp': shp, 'plots.shx': shx }), filename: 'huge-polygon.zip' };
}

/**
 * A zip whose one .shp entry inflates to `inflatedBytes` of zeros (250 MB, about 0.25 MB zipped):
 * under the zip's declared-size bound, and no shapefile at all from its first byte.
 */
export function inflatingZip(inflatedBytes = 250_000_000): HostileFile {
  return { bytes: zipped({ 'plots.shp': new Uint8Array(inflatedBytes) }), filename: 'inflating.zip' };
}

/**
 * A zipped shapefile of `records` null shape records (20 M: a 240 MB .shp). Every record carries
 * the number 1 (the format's numbering is not what any reader checks), so the file zips small.
 */
export function nullRecordsShapefileZip(records = 20_000_000): HostileFile {
  const total = SHP_HEADER + 12 * records;
  const shp = Buffer.alloc(total);
  header(POLYGON, total).copy(shp, 0);
  const record = Buffer.alloc(12);
  record.writeInt32BE(1, 0);
  record.writeInt32BE(2, 4);
  record.writeInt32LE(0, 8);
  shp.fill(record, SHP_HEADER);
  return { bytes: zipped({ 'plots.shp': shp }), filename: 'null-records.zip' };
}

/**
 * A KMZ whose doc.kml is a KML document padded with spaces to `inflatedBytes` (250 MB, about 0.25 MB
 * zipped: ten times the largest KML taken on its own).
 */
export function kmlBombKmz(inflatedBytes = 250_000_000): HostileFile {
  const kml = new Uint8Array(inflatedBytes).fill(0x20);
  kml.set(Buffer.from('<kml><Document>'), 0);
  const tail = Buffer.from('</Document></kml>');
  kml.set(tail, inflatedBytes - tail.length);
  return { bytes: zipped({ 'doc.kml': kml }), filename: 'bomb.kmz' };
}

/** A KMZ of one Document holding `count` empty `tag` elements side by side. */
const crowdedKmz = (tag: string, count: number): HostileFile => ({
  bytes: zipped({ 'doc.kml': Buffer.from(`<kml><Document>${`<${tag}/>`.repeat(count)}</Document></kml>`) }),
  filename: 'crowded.kmz',
});

/** A KMZ of one Document holding `placemarks` empty Placemarks (500,000: 6 MB of KML, some kilobytes zipped). */
export const placemarkFloodKmz = (placemarks = 500_000) => crowdedKmz('Placemark', placemarks);

/** A KMZ of one Document holding `folders` empty Folders (200,000: more than a call's arguments may spread). */
export const folderFloodKmz = (folders = 200_000) => crowdedKmz('Folder', folders);

/** A GeoJSON Feature whose Polygon's coordinates nest `levels` arrays deep (40,000: 80 KB). */
export function deepGeoJson(levels = 40_000): HostileFile {
  const coordinates = `${'['.repeat(levels)}${']'.repeat(levels)}`;
  return { bytes: Buffer.from(`{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":${coordinates}}}`), filename: 'deep.geojson' };
}

/** A CSV of `rows` rows, each with a quote inside an unquoted field: a quoting error a row (2,000,000: 24 MB). */
export function badQuoteRowsCsv(rows = 2_000_000): HostileFile {
  const row = `Q"1,${LON},${LAT}\n`;
  return { bytes: Buffer.concat([Buffer.from('ref,lon,lat\n'), Buffer.alloc(row.length * rows, row)]), filename: 'quoting.csv' };
}

/** A CSV whose header names lon, lat and `columns` - 2 more, with one data row (1,000,000 columns: 14 MB). */
export function wideCsv(columns = 1_000_000): HostileFile {
  const header = ['lon', 'lat', ...Array.from({ length: columns - 2 }, (_, i) => `c${i}`)].join(',');
  const row = [LON, LAT, ...Array<string>(columns - 2).fill('x')].join(',');
  return { bytes: Buffer.from(`${header}\n${row}\n`), filename: 'wide.csv' };
}

/** A .shp of `records` point records, all at one place, and its .shx. */
function pointShapefile(records: number): { shp: Buffer; shx: Buffer } {
  const POINT = 1;
  const shp = Buffer.alloc(SHP_HEADER + 28 * records);
  header(POINT, shp.length).copy(shp, 0);
  const shx = Buffer.alloc(SHP_HEADER + 8 * records);
  header(POINT, shx.length).copy(shx, 0);
  for (let i = 0; i < records; i++) {
    const at = SHP_HEADER + 28 * i;
    shp.writeInt32BE(i + 1, at);
    shp.writeInt32BE(10, at + 4);
    shp.writeInt32LE(POINT, at + 8);
    shp.writeDoubleLE(LON, at + 12);
    shp.writeDoubleLE(LAT, at + 20);
    shx.writeInt32BE(at / 2, SHP_HEADER + 8 * i);
    shx.writeInt32BE(10, SHP_HEADER + 8 * i + 4);
  }
  return { shp, shx };
}

/**
 * A zipped shapefile of `records` points whose .dbf has `fields` text fields of `width` bytes, each
 * holding "x" (2,000 fields of 50,000 records: a 100 MB .dbf, some hundreds of kilobytes zipped).
 */
export function wideDbfShapefileZip({ fields = 2_000, width = 1, records = 50_000 } = {}): HostileFile {
  const headerLength = 32 + 32 * fields + 1;
  const recordLength = 1 + fields * width;
  const dbf = Buffer.alloc(headerLength + recordLength * records + 1, 'x');
  dbf.fill(0, 0, headerLength);
  dbf.writeUInt8(0x03, 0);
  dbf.writeUInt32LE(records, 4);
  dbf.writeUInt16LE(headerLength, 8);
  dbf.writeUInt16LE(recordLength, 10);
  for (let f = 0; f < fields; f++) {
    dbf.write(`F${f}`, 32 + 32 * f, 'latin1');
    dbf.write('C', 32 + 32 * f + 11, 'latin1');
    dbf.writeUInt8(width, 32 + 32 * f + 16);
  }
  dbf.writeUInt8(0x0d, headerLength - 1);
  // Each record opens with its deletion flag, a space for a live record.
  for (let r = 0; r < records; r++) dbf[headerLength + recordLength * r] = 0x20;
  dbf[dbf.length - 1] = 0x1a;
  const { shp, shx } = pointShapefile(records);
  return { bytes: zipped({ 'plots.shp': shp, 'plots.shx': shx, 'plots.dbf': dbf }), filename: 'wide-dbf.zip' };
}

/**
 * A zipped shapefile of one point record whose content length claims `claimedBytes` (250 MB) and
 * whose file is that long, zeros after the point: every length the file gives agrees with its size.
 */
export function longPointShapefileZip(claimedBytes = 250_000_000): HostileFile {
  const { shp: one } = pointShapefile(1);
  const shp = Buffer.alloc(SHP_HEADER + 8 + claimedBytes);
  one.copy(shp);
  header(1, shp.length).copy(shp, 0);
  shp.writeInt32BE(claimedBytes / 2, SHP_HEADER + 4);
  return { bytes: zipped({ 'plots.shp': shp }), filename: 'long-point.zip' };
}

/** A zip of `entries` empty text files. */
export function manyEntriesZip(entries = 1_001): HostileFile {
  return { bytes: zipped(Object.fromEntries(Array.from({ length: entries }, (_, i) => [`e${i}.txt`, new Uint8Array(0)]))), filename: 'entries.zip' };
}

/** A zip of `layers` shapefiles of one point each, each a .shp alone, so each layer has three notes (no .shx, .dbf, .prj). */
export function manyLayersShapefileZip(layers = 400): HostileFile {
  const { shp } = pointShapefile(1);
  return { bytes: zipped(Object.fromEntries(Array.from({ length: layers }, (_, i) => [`layer${i}.shp`, shp]))), filename: 'layers.zip' };
}

/** The zip with every entry's uncompressed size, in its central directory and its local header, set to `size`: a header that lies. */
export function declaringSize(archive: Uint8Array, size: number): Buffer {
  const b = Buffer.from(archive);
  for (let i = 0; i + 4 <= b.length; i++) {
    if (b.readUInt32LE(i) === 0x02014b50) b.writeUInt32LE(size, i + 24);
    else if (b.readUInt32LE(i) === 0x04034b50) b.writeUInt32LE(size, i + 22);
  }
  return b;
}
