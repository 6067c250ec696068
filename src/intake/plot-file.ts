import { parseCsv } from './csv.ts';
import { detectFormat } from './format.ts';
import { DEFAULT_CAPS, type IntakeCaps } from './limits.ts';
import { parseGeoJson } from './geojson.ts';
import { isKmz, parseKml, parseKmz } from './kml.ts';
import type { ProducerRef } from './producers.ts';
import { parseShapefileZip } from './shapefile.ts';
import type { ParsedFile } from './types.ts';
import { validatePlots, type IntakeReport } from './validate.ts';

/**
 * Reads one uploaded plot file (GeoJSON, zipped shapefile, KML or KMZ, or CSV of points), its format
 * told by its content and name. Throws a DomainError for a file that cannot be read at all; anything wrong with a
 * single plot is left for validatePlots().
 */
export async function readPlotFile(bytes: Uint8Array, filename?: string, caps: IntakeCaps = DEFAULT_CAPS): Promise<ParsedFile> {
  const format = detectFormat(bytes, filename);
  if (format === 'zip') return (await isKmz(bytes)) ? parseKmz(bytes, caps) : parseShapefileZip(bytes, caps);
  if (format === 'geojson') return parseGeoJson(bytes, caps);
  if (format === 'kml') return parseKml(bytes, caps);
  return parseCsv(bytes);
}

/** One uploaded file and what its judgement needs beside it, all plain data (it crosses to a worker thread). */
export interface JudgeRequest {
  bytes: Uint8Array;
  filename?: string;
  /** Alpha-2 of the query's country, or null. */
  country: string | null;
  producers: ProducerRef[];
  now?: Date;
  /** DEFAULT_CAPS when absent. */
  caps?: IntakeCaps;
}

/**
 * Parses and judges one file of a workspace (the intake pool serves workspaces in turns): the report
 * of every plot, storing nothing. Throws a DomainError for a file refused whole.
 */
export type PlotJudge = (request: JudgeRequest, workspaceId: string) => Promise<IntakeReport>;

/** The judgement on the calling thread, a PlotJudge taking no turns; the API runs it in the intake pool. */
export const judgePlotFile = async (request: JudgeRequest): Promise<IntakeReport> =>
  validatePlots(await readPlotFile(request.bytes, request.filename, request.caps), request);
