// The settlement block's planning half: for each year, the first Open Buildings tile over the plot's
// ring, found through the S2 cell's manifests.
import type { Archive } from '../../archive.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { BUFFER_M, CUTOFF_YEAR, type SettlementPrepared, type SettlementProvenance, SETTLEMENT_YEARS, type SettlementYear, type SettlementYearPlan } from '../../context/settlement.ts';
import { readArchiveJson } from '../../sources/products/cog-opener.ts';
import { type GcsListing, type ManifestJson, manifestListingUrl, manifestNamesForYear, manifestToken, objectUrl, OPEN_BUILDINGS, openBuildingsProvenance, parseManifest, tilesTouching } from '../../sources/products/open-buildings/codes.ts';
import { type Bbox, transformBbox } from '../../sources/reproject.ts';
import { type RasterRequest, requestForBox } from '../../sources/raster-request.ts';
import { unlessAborted } from './not-read.ts';

/** The manifest names of one S2 cell, every page of the bucket listing. */
async function manifestNames(archive: Archive, token: string, signal?: AbortSignal): Promise<string[]> {
  const names: string[] = [];
  let page: string | undefined;
  do {
    const listing = await readArchiveJson<GcsListing>(manifestListingUrl(token, page), archive, signal);
    names.push(...(listing.items ?? []).map((i) => i.name));
    page = listing.nextPageToken;
  } while (page);
  return names;
}

type YearOutcome = { plan: SettlementYearPlan; request: RasterRequest | null };

/** The first tile of a year's manifests that touches the box, as a request for the box's window. */
async function planYear(archive: Archive, names: string[], year: number, box: Bbox, signal?: AbortSignal): Promise<YearOutcome> {
  for (const name of manifestNamesForYear({ items: names.map((n) => ({ name: n })) }, year)) {
    for (const tile of parseManifest(await readArchiveJson<ManifestJson>(objectUrl(name), archive, signal))) {
      if (tilesTouching([tile], tile.epsg, transformBbox(box, 'EPSG:4326', tile.epsg)).length === 0) continue;
      const request = requestForBox(await archive.cogs.open(tile.href, { signal }), box);
      return { plan: { state: 'read', key: request.key, tiles: [tile.href] }, request };
    }
  }
  return { plan: { state: 'no_coverage', why: 'no manifest of the year lists a tile there' }, request: null };
}

export async function planSettlement(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: SettlementPrepared }> {
  const p = openBuildingsProvenance(CUTOFF_YEAR, '', archive.where);
  const provenance: SettlementProvenance = { source: p.dataset, version: OPEN_BUILDINGS.version, licence: p.licence, attribution: p.attribution, citation: p.citation };
  // The ring's outer edge and a few cells beyond.
  const box = footprintBox(plot.footprint, BUFFER_M + 10);
  let names: string[] | null = null;
  let listingFailed = '';
  try {
    names = await manifestNames(archive, manifestToken(...plot.centroid), signal);
  } catch (err) {
    listingFailed = unlessAborted(err, signal);
  }
  // A year that fails is not remembered: the next plot asks again.
  const outcomes = await Promise.all(
    SETTLEMENT_YEARS.map(async (year): Promise<YearOutcome> => {
      if (names === null) return { plan: { state: 'unavailable', why: listingFailed }, request: null };
      try {
        return await planYear(archive, names, year, box, signal);
      } catch (err) {
        return { plan: { state: 'unavailable', why: unlessAborted(err, signal) }, request: null };
      }
    }),
  );
  const years = Object.fromEntries(SETTLEMENT_YEARS.map((y, k) => [y, outcomes[k].plan])) as Record<SettlementYear, SettlementYearPlan>;
  const requests = outcomes.flatMap((o) => (o.request === null ? [] : [o.request]));
  return { requests, prepared: { provenance, years } };
}

