/**
 * Reads a plot as finishPlot does, with no database: planned against an archive, its tiles shipped,
 * the plot task run on this thread, decided and assembled into its evidence object.
 */
import { area } from '@turf/turf';
import type { Polygon } from 'geojson';
import type { Archive } from '../../src/engine/archive.ts';
import { assembleEvidence } from '../../src/engine/assemble-evidence.ts';
import { DecodedTiles, shipRasters } from '../../src/engine/plan/raster-shipment.ts';
import { planRead, type PlotToRead } from '../../src/engine/plan/read-plan.ts';
import { decisionOf } from '../../src/engine/read-plot.ts';
import { plot as plotTask } from '../../src/engine/worker/plot-task.ts';

export async function readPlotHere(archive: Archive, footprint: Polygon, country: string) {
  const plot: PlotToRead = { id: 'p1', workspaceId: 'w1', ref: 'plot', geometry: footprint, areaHa: area(footprint) / 10_000, declaredAreaHa: null, country, producerCountry: country };
  const plan = await planRead(plot, archive);
  const shipment = await shipRasters(plan.requests, new DecodedTiles());
  const result = plotTask(structuredClone({ ...plan.task, shipment: { tiles: shipment.tiles, rasters: shipment.rasters } }));
  const decision = decisionOf(plan, result);
  return { plan, result, decision, evidence: assembleEvidence({ plan, result, decision, issued: new Date('2026-11-24T00:00:00Z'), synthetic: true }) };
}
