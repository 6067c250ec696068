import { parseCsv } from './csv.ts';
import { detectFormat } from './format.ts';
import { parseGeoJson } from './geojson.ts';
import { parseShapefileZip } from './shapefile.ts';
import type { ParsedFile } from './types.ts';

/**
 * Reads one uploaded plot file (GeoJSON, zipped shapefile or CSV of points), its format told by its
 * content and name. Throws a DomainError for a file that cannot be read at all; anything wrong with a
 * single plot is left for validatePlots().
 */
export async function readPlotFile(bytes: Uint8Array, filename?: string): Promise<ParsedFile> {
  const format = detectFormat(bytes, filename);
  if (format === 'shapefile') return parseShapefileZip(bytes);
  if (format === 'geojson') return parseGeoJson(bytes);
  return parseCsv(bytes);
}
