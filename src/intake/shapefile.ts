import { Buffer } from 'node:buffer';
import { open as openShapefile } from 'shapefile';
import { DomainError } from '../errors.ts';
import { badShapefile, shapefileRecordTooComplex, tableTooLarge, tooManyPlots, tooManyVertices } from './errors.ts';
import { capText, DEFAULT_CAPS, MAX_DBF_RECORD_BYTES, MAX_PLOTS, type IntakeCaps } from './limits.ts';
import { checkTableSize } from './table-size.ts';
import { reprojectGeometry, toWgs84, type Reprojection } from './reproject.ts';
import type { ParsedFile, RawPlot } from './types.ts';
import { messageOf, unzip, type Watch } from './zip.ts';

const PARTS = new Set(['shp', 'shx', 'dbf', 'prj', 'cpg']);

type Layer = Partial<Record<'shp' | 'shx' | 'dbf' | 'prj' | 'cpg', Buffer>>;

/**
 * A zipped shapefile: every layer (.shp with its .shx, .dbf, .prj, .cpg) in the zip, one plot per
 * record, converted to WGS84 from the .prj. The zip's declared sizes are bounded before anything is
 * inflated, and yauzl checks while inflating that no entry outgrows its declared size.
 */
export async function parseShapefileZip(bytes: Uint8Array, caps: IntakeCaps = DEFAULT_CAPS): Promise<ParsedFile> {
  const layers = await unzipLayers(bytes, caps);
  const notes: string[] = [];
  const plots: RawPlot[] = [];
  for (const [name, layer] of [...layers].sort(([a], [b]) => a.localeCompare(b))) {
    await readLayer(name, layer, plots, notes);
  }
  return { format: 'shapefile', plots, notes, row_errors: [], row_errors_omitted: 0 };
}

async function unzipLayers(zip: Uint8Array, caps: IntakeCaps): Promise<Map<string, Layer>> {
  const vertices = { count: 0 };
  const { seen, taken } = await unzip(zip, (path, declared) => {
    const m = /^(.*)\.([^./]+)$/.exec(path);
    const part = m?.[2].toLowerCase();
    if (!m || !part || !PARTS.has(part)) return null;
    checkDeclared(path, part as keyof Layer, declared);
    const name = `${m[1].toLowerCase()}.${part}`;
    return part === 'shp' ? watchShp(name, caps, vertices) : part === 'dbf' ? watchDbf(name, declared) : () => {};
  });
  const layers = new Map<string, Layer>();
  for (const { path, bytes } of taken) {
    const [, layer, part] = /^(.*)\.([^./]+)$/.exec(path)!;
    const parts = layers.get(layer.toLowerCase()) ?? {};
    parts[part.toLowerCase() as keyof Layer] = bytes;
    layers.set(layer.toLowerCase(), parts);
  }
  const withShp = new Map([...layers].filter(([, l]) => l.shp));
  if (withShp.size === 0) {
    throw badShapefile(`the zip holds no .shp file, nor a .kml (it holds: ${seen.slice(0, 20).join(', ') || 'nothing'}).`);
  }
  return withShp;
}

const POLY_TYPES = new Set([3, 13, 23, 5, 15, 25]);
const MULTIPOINT_TYPES = new Set([8, 18, 28]);

/**
 * Reads the .shp's record headers as they inflate: the count of records, and each record's parts
 * and points, against the caps (a header declaring 15 million points, or 20 million empty records, is
 * refused after a few bytes). Lengths are only followed here; checkShp() refuses broken ones.
 */
function watchShp(name: string, caps: IntakeCaps, vertices: { count: number }): Watch {
  let next = 100;
  let records = 0;
  return (shp) => {
    if (next === 100 && shp.length >= 4 && shp.readInt32BE(0) !== 9994) throw badShapefile(`${name}: it does not begin with the shapefile file code 9994.`);
    while (next + 12 <= shp.length) {
      const at = next + 8;
      const type = shp.readInt32LE(at);
      const poly = POLY_TYPES.has(type);
      if ((poly || MULTIPOINT_TYPES.has(type)) && at + 44 > shp.length) return;
      records++;
      if (records > MAX_PLOTS) throw tooManyPlots();
      const parts = poly ? shp.readInt32LE(at + 36) : 1;
      const points = poly ? shp.readInt32LE(at + 40) : MULTIPOINT_TYPES.has(type) ? shp.readInt32LE(at + 36) : 1;
      const where = `Record ${records} of ${name}`;
      if (parts > caps.partsPerPlot) throw shapefileRecordTooComplex(where, `${parts.toLocaleString('en')} parts`, capText(caps, 'partsPerPlot'));
      if (points > caps.verticesPerPlot) throw shapefileRecordTooComplex(where, `${points.toLocaleString('en')} points`, capText(caps, 'verticesPerPlot'));
      vertices.count += Math.max(0, points);
      if (vertices.count > caps.verticesPerFile) throw tooManyVertices(capText(caps, 'verticesPerFile'));
      const length = shp.readInt32BE(next + 4) * 2;
      if (length < 4) return;
      // A record claiming more bytes than its shape takes is refused here, before those bytes inflate.
      const disagreement = SHAPE_TYPES[type] && parts >= 0 && points >= 0 ? lengthDisagreement(type, parts, points, length) : null;
      if (disagreement) throw badShapefile(`${where} ${disagreement}`);
      next += 8 + length;
    }
  };
}

/** Room for what a writer may leave after a .dbf's last record (its end-of-file mark, padding). */
const DBF_SLACK_BYTES = 64 * 1024;

/**
 * The .dbf's header, once inflated, must account for the entry's declared size and hold no more
 * records than an import takes; once its field descriptors have inflated too, the table's fields,
 * record size and values are bounded (checkTable), all before a record is read.
 */
function watchDbf(name: string, declared: number): Watch {
  let counted = false;
  let tabled = false;
  return (dbf) => {
    if (dbf.length < 12) return;
    const count = dbf.readUInt32LE(4);
    const headerLength = dbf.readUInt16LE(8);
    if (!counted) {
      counted = true;
      if (count > MAX_PLOTS) throw tooManyPlots();
      const size = headerLength + dbf.readUInt16LE(10) * count;
      if (declared > size + DBF_SLACK_BYTES) {
        throw badShapefile(`${name}: its header accounts for ${size} bytes but the zip declares ${declared}.`);
      }
    }
    if (!tabled && dbf.length >= headerLength) {
      tabled = true;
      checkTable(name, dbf, count, headerLength);
    }
  };
}

/**
 * The .dbf's fields (descriptors of 32 bytes from byte 32 to the 0x0D that ends them), its record
 * size and its values against the table bounds (checkTableSize, MAX_DBF_RECORD_BYTES).
 */
function checkTable(name: string, dbf: Buffer, records: number, headerLength: number): void {
  let fields = 0;
  while (32 + 32 * fields < headerLength && dbf[32 + 32 * fields] !== 0x0d) fields++;
  checkTableSize(fields, records, 'dbf', name);
  const recordLength = dbf.readUInt16LE(10);
  if (recordLength > MAX_DBF_RECORD_BYTES) {
    throw tableTooLarge(`records of ${recordLength.toLocaleString('en')} bytes (${name})`, `${MAX_DBF_RECORD_BYTES.toLocaleString('en')} bytes a record`);
  }
}

/** The most a .prj or .cpg may declare (a projection's WKT is a few KB); the .shx holds 8 bytes a record. */
const SIDE_PART_BYTES = 1024 * 1024;

/** The sizes an index or side part declares, checked before anything is inflated. */
function checkDeclared(name: string, part: keyof Layer, declared: number): void {
  if (part === 'shx' && declared > 100 + 8 * MAX_PLOTS) throw tooManyPlots();
  if ((part === 'prj' || part === 'cpg') && declared > SIDE_PART_BYTES) throw badShapefile(`${name} declares ${declared} bytes, more than a ${part} file holds.`);
}

async function readLayer(name: string, layer: Layer, plots: RawPlot[], notes: string[]): Promise<void> {
  const shp = layer.shp!;
  const count = checkShp(name, shp, layer.shx);
  // Bytes past the header's file length are not records; the reader must not see them.
  const shpRecords = shp.subarray(0, shp.readInt32BE(24) * 2);
  if (!layer.shx) notes.push(`${name}: no .shx in the zip; the records were read in order from the .shp.`);
  if (layer.dbf) checkDbf(name, layer.dbf, count);
  else notes.push(`${name}: no .dbf in the zip; the plots have no properties.`);

  let convert: Reprojection | null = null;
  if (layer.prj) {
    const crs = toWgs84(layer.prj.toString('utf8'), `${name}.prj`);
    convert = crs.convert;
    if (convert) notes.push(`${name}: coordinates were converted from ${crs.name} (the .prj) to WGS84 longitude and latitude.`);
  } else {
    notes.push(`${name}: no .prj in the zip; the coordinates were read as WGS84 longitude and latitude.`);
  }

  let encoding = 'windows-1252';
  if (layer.cpg) {
    const label = dbfEncoding(layer.cpg.toString('latin1'));
    if (label) encoding = label;
    else notes.push(`${name}: the .cpg names an encoding that cannot be read (${layer.cpg.toString('latin1').trim()}); the .dbf was read as Windows-1252.`);
  }

  try {
    const source = await openShapefile(shpRecords, layer.dbf, { encoding });
    for (;;) {
      const { done, value } = await source.read();
      if (done) break;
      if (plots.length >= MAX_PLOTS) throw tooManyPlots();
      plots.push({
        index: plots.length,
        geometry: convert && value.geometry ? reprojectGeometry(value.geometry, convert) : value.geometry,
        properties: trimmed(value.properties ?? {}),
        orientationByFormat: true,
      });
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw badShapefile(`${name}: ${messageOf(error)}`);
  }
}

/** dBASE pads text fields with spaces. */
function trimmed(properties: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(properties)) out[k] = typeof v === 'string' ? v.trim() : v;
  return out;
}

/** A TextDecoder label for a .cpg's content ("UTF-8", "ISO-8859-1", "1252"), or null. */
function dbfEncoding(cpg: string): string | null {
  const text = cpg.trim();
  for (const label of [text, /^\d+$/.test(text) ? `windows-${text}` : '', text.replace(/^ANSI\s*/i, 'windows-')]) {
    if (!label) continue;
    try {
      new TextDecoder(label);
      return label;
    } catch {
      // not a label; try the next spelling
    }
  }
  return null;
}

const SHAPE_TYPES: Record<number, 'null' | 'point' | 'multipoint' | 'poly'> = {
  0: 'null',
  1: 'point',
  11: 'point',
  21: 'point',
  8: 'multipoint',
  18: 'multipoint',
  28: 'multipoint',
  3: 'poly',
  13: 'poly',
  23: 'poly',
  5: 'poly',
  15: 'poly',
  25: 'poly',
};

/**
 * Walks the .shp record by record and checks every length against the file, and the .shx against
 * the walk, so broken offsets are refused with where they break rather than read as garbage (the
 * shapefile package skips ahead silently over a record it cannot place).
 */
/** The number of records, once every one is placed. */
function checkShp(name: string, shp: Buffer, shx: Buffer | undefined): number {
  const fail = (detail: string) => badShapefile(`${name}.shp: ${detail}`);
  if (shp.length < 100) throw fail(`${shp.length} bytes, shorter than the 100-byte header.`);
  if (shp.readInt32BE(0) !== 9994) throw fail('it does not begin with the shapefile file code 9994.');
  const declared = shp.readInt32BE(24) * 2;
  if (declared > shp.length) throw fail(`the header gives ${declared} bytes but the file has ${shp.length}: it is truncated.`);
  const type = shp.readInt32LE(32);
  const kind = SHAPE_TYPES[type];
  if (kind === undefined) throw fail(`shape type ${type} is not a shapefile shape type.`);

  const records: { offset: number; length: number }[] = [];
  for (let offset = 100; offset < declared; ) {
    const n = records.length + 1;
    if (offset + 12 > declared) throw fail(`record ${n} at byte ${offset} has no room for its header.`);
    const length = shp.readInt32BE(offset + 4) * 2;
    if (length < 4 || offset + 8 + length > declared) {
      throw fail(`record ${n} at byte ${offset} claims ${length} bytes of content, beyond the end of the file: its length or offset is broken.`);
    }
    const recordType = shp.readInt32LE(offset + 8);
    if (recordType !== 0 && recordType !== type) {
      throw fail(`record ${n} at byte ${offset} has shape type ${recordType} in a file of type ${type}: the offsets are broken.`);
    }
    if (recordType !== 0) checkRecord(shp, offset + 8, length, type, kind, (detail) => fail(`record ${n} at byte ${offset} ${detail}`));
    records.push({ offset, length });
    offset += 8 + length;
  }

  if (shx) {
    const listed = (shx.length - 100) / 8;
    if (shx.length < 100 || listed !== records.length) {
      throw badShapefile(`${name}.shx lists ${Math.max(0, Math.floor(listed))} records but the .shp holds ${records.length}.`);
    }
    records.forEach((r, i) => {
      const offset = shx.readInt32BE(100 + 8 * i) * 2;
      const length = shx.readInt32BE(104 + 8 * i) * 2;
      if (offset !== r.offset || length !== r.length) {
        throw badShapefile(`${name}.shx places record ${i + 1} at byte ${offset} (${length} bytes), but in the .shp it is at byte ${r.offset} (${r.length} bytes): the offsets are broken.`);
      }
    });
  }
  return records.length;
}

/**
 * A record's content length must be the one its shape type and counts take: a point 20 bytes, a
 * polygon its header, part starts and points, each Z or M variant with its range and values (M
 * optional, as writers leave it out). Anything longer is bytes the reader would skip unseen (a point
 * claiming 250 MB of zeros), anything shorter a record read into its neighbour. Null when it agrees.
 */
function lengthDisagreement(type: number, parts: number, points: number, length: number): string | null {
  const kind = SHAPE_TYPES[type];
  if (kind === 'null') return length === 4 ? null : `claims ${length} bytes of content, where a null shape takes 4.`;
  const base = kind === 'point' ? 20 : kind === 'multipoint' ? 40 + 16 * points : 44 + 4 * parts + 16 * points;
  // A Z or M section: a range of two doubles, then one double a point (a point's alone has no range).
  const section = kind === 'point' ? 8 : 16 + 8 * points;
  const variant = Math.floor(type / 10);
  const lengths = variant === 0 ? [base] : variant === 1 ? [base + section, base + 2 * section] : [base, base + section];
  if (lengths.includes(length)) return null;
  return `claims ${length} bytes of content, where its shape type ${type} and its ${points} point(s) take ${lengths.join(' or ')}.`;
}

function checkRecord(shp: Buffer, at: number, length: number, type: number, kind: string, fail: (detail: string) => Error): void {
  let parts = 0;
  let points = 1;
  if (kind === 'multipoint') {
    points = length >= 40 ? shp.readInt32LE(at + 36) : -1;
    if (points < 0) throw fail(`is ${length} bytes, too short for a multipoint.`);
  } else if (kind === 'poly') {
    if (length < 44) throw fail(`is ${length} bytes, too short for a polygon.`);
    parts = shp.readInt32LE(at + 36);
    points = shp.readInt32LE(at + 40);
    if (parts < 0 || points < 0 || 44 + 4 * parts + 16 * points > length) throw fail(`holds ${parts} parts and ${points} points, more than its length allows.`);
    let previous = -1;
    for (let i = 0; i < parts; i++) {
      const start = shp.readInt32LE(at + 44 + 4 * i);
      if (start <= previous || start >= points || (i === 0 && start !== 0)) throw fail(`has part ${i + 1} starting at point ${start}, which is out of order.`);
      previous = start;
    }
  }
  const disagreement = lengthDisagreement(type, parts, points, length);
  if (disagreement) throw fail(disagreement);
}

function checkDbf(name: string, dbf: Buffer, shpRecords: number): void {
  if (dbf.length < 32) throw badShapefile(`${name}.dbf: ${dbf.length} bytes, shorter than its header.`);
  const count = dbf.readUInt32LE(4);
  const headerLength = dbf.readUInt16LE(8);
  const recordLength = dbf.readUInt16LE(10);
  if (count !== shpRecords) throw badShapefile(`${name}.dbf holds ${count} records but the .shp holds ${shpRecords}.`);
  if (headerLength + recordLength * count > dbf.length) {
    throw badShapefile(`${name}.dbf: its header promises ${count} records of ${recordLength} bytes, more than the file holds: it is truncated.`);
  }
}
