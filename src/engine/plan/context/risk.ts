// The risk block's planning half: the protected-area map asked around the plot, the Hansen windows
// over the ring, and the producer's country classification.
import type { Archive } from '../../archive.ts';
import { classifyCountry, type CountryRiskBlock } from '../../context/country-classification.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { type NeighbourhoodProvenance, type ProtectedAreaAnswer, RING_KM, type RiskPrepared, SEARCH_RADIUS_KM } from '../../context/risk.ts';
import { HANSEN_VERSION, hansenProvenance, hansenTile } from '../../sources/products/hansen/codes.ts';
import type { Provenance } from '../../sources/products/provenance.ts';
import type { RasterRequest } from '../../sources/raster-request.ts';
import { unlessAborted, unlessAbortedOrTransient } from './not-read.ts';
import { partlyReadOf } from './partly-read.ts';

/**
 * The country part of the block: the producer's country, else the plot's own uploaded country
 * (spec 4.1: it names both), never read off the boundary.
 */
export function riskCountry(plot: ContextPlot): CountryRiskBlock {
  return classifyCountry(plot.producer_country ?? plot.country);
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
    // The crowd-sourced search is context only and often busy: a failure of any kind is recorded (spec 2.8.2).
    return { available: false, why: unlessAborted(err, signal) };
  }
}

function neighbourhoodProvenance(p: Provenance): NeighbourhoodProvenance {
  return {
    source: 'Hansen/UMD Global Forest Change',
    dataset: HANSEN_VERSION.release,
    version: HANSEN_VERSION.release.replace(/^.*-(v[\d.]+)$/, '$1'),
    licence: p.licence,
    citation: p.citation,
  };
}

const HANSEN_LAYERS = ['treecover2000', 'lossyear', 'datamask'] as const;

/**
 * The Hansen windows reach the ring's outer edge and a pixel beyond, from every tile that box
 * touches. A tile missing reads as data mask 0 (no data), which the ring's land area leaves out.
 */
export async function planRisk(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: RiskPrepared }> {
  const box = footprintBox(plot.footprint, RING_KM * 1000 + 60);
  const [protectedAreas, hansen] = await Promise.all([
    askProtectedAreas(plot, archive, signal),
    archive.hansen.windows(box, HANSEN_LAYERS, signal).then(
      (windows) => ({ windows, error: null }),
      (error: unknown) => ({ windows: null, error }),
    ),
  ]);
  if (hansen.windows === null) {
    const provenance = neighbourhoodProvenance(hansenProvenance('lossyear', hansenTile(...plot.centroid), archive.where));
    return { requests: [], prepared: { country: riskCountry(plot), protectedAreas, neighbourhood: { provenance, state: 'not_read', why: unlessAbortedOrTransient(hansen.error, signal) } } };
  }
  const { treecover2000, lossyear, datamask } = hansen.windows.layers;
  const provenance = neighbourhoodProvenance(lossyear.provenance);
  const requests = [treecover2000.request, lossyear.request, datamask.request];
  return {
    requests,
    prepared: {
      country: riskCountry(plot),
      protectedAreas,
      neighbourhood: { provenance, state: 'read', treecover2000: treecover2000.request.key, lossyear: lossyear.request.key, datamask: datamask.request.key, ...partlyReadOf(requests) },
    },
  };
}
