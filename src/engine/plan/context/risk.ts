// The risk block's planning half: the protected-area map asked around the plot, the Hansen windows
// over the ring, and the producer's country classification.
import type { Archive } from '../../archive.ts';
import { classifyCountry, type CountryRiskBlock } from '../../context/country-classification.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { type NeighbourhoodProvenance, type ProtectedAreaAnswer, RING_KM, type RiskPrepared, SEARCH_RADIUS_KM } from '../../context/risk.ts';
import { HANSEN_VERSION, hansenHref, hansenProvenance, hansenTile } from '../../sources/products/hansen/codes.ts';
import { type RasterRequest, requestForBox } from '../../sources/raster-request.ts';
import { unlessAborted } from './not-read.ts';

/** The country part of the block: the producer's country, never read off the boundary. */
export function riskCountry(plot: ContextPlot): CountryRiskBlock {
  return classifyCountry(plot.producer_country);
}

async function askProtectedAreas(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<ProtectedAreaAnswer> {
  const [lon, lat] = plot.centroid;
  try {
    const [around, containing] = await Promise.all([
      archive.protectedAreas.around(lon, lat, SEARCH_RADIUS_KM * 1000, signal),
      archive.protectedAreas.containing(lon, lat, signal),
    ]);
    return { available: true, around: around.areas, containing: containing.areas, snapshot: around.snapshot ?? containing.snapshot };
  } catch (err) {
    return { available: false, why: unlessAborted(err, signal) };
  }
}

/** The Hansen windows reach the ring's outer edge and a pixel beyond. */
export async function planRisk(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: RiskPrepared }> {
  const tile = hansenTile(...plot.centroid);
  const p = hansenProvenance('lossyear', tile, archive.where);
  const provenance: NeighbourhoodProvenance = {
    source: 'Hansen/UMD Global Forest Change',
    dataset: HANSEN_VERSION.release,
    version: HANSEN_VERSION.release.replace(/^.*-(v[\d.]+)$/, '$1'),
    licence: p.licence,
    citation: p.citation,
  };
  const box = footprintBox(plot.footprint, RING_KM * 1000 + 60);
  const layers = ['treecover2000', 'lossyear', 'datamask'] as const;
  const [protectedAreas, hansen] = await Promise.all([
    askProtectedAreas(plot, archive, signal),
    Promise.all(layers.map(async (layer) => requestForBox(await archive.cogs.open(hansenHref(layer, tile), { signal }), box))).then(
      (requests) => ({ requests, error: null }),
      (error: unknown) => ({ requests: [] as RasterRequest[], error }),
    ),
  ]);
  if (hansen.error !== null) {
    return { requests: [], prepared: { country: riskCountry(plot), protectedAreas, neighbourhood: { provenance, state: 'not_read', why: unlessAborted(hansen.error, signal) } } };
  }
  const [treecover2000, lossyear, datamask] = hansen.requests.map((r) => r.key);
  return { requests: hansen.requests, prepared: { country: riskCountry(plot), protectedAreas, neighbourhood: { provenance, state: 'read', treecover2000, lossyear, datamask } } };
}

