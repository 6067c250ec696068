// The commodity_maps block's planning half: the oil palm cell and the rubber tile over the plot.
import type { Archive } from '../../archive.ts';
import type { CommodityMapsPrepared } from '../../context/commodity-maps.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { readArchiveJson } from '../../sources/products/cog-opener.ts';
import { type GridCellFeature, OIL_PALM_GRID_HREF, oilPalmCells, oilPalmHref, oilPalmProvenance, rubberCovers, rubberHref, rubberProvenance, rubberReadable } from '../../sources/products/commodity-maps/codes.ts';
import { euForestTile } from '../../sources/products/eu-forest-maps/codes.ts';
import type { Bbox } from '../../sources/reproject.ts';
import { type RasterRequest, requestForBox } from '../../sources/raster-request.ts';
import { unlessAborted } from './not-read.ts';

// The oil palm grid is one document per archive: kept once asked for, dropped if the ask failed.
const palmGrids = new WeakMap<Archive, Promise<{ features: GridCellFeature[] }>>();
function palmGrid(archive: Archive, signal?: AbortSignal): Promise<{ features: GridCellFeature[] }> {
  let grid = palmGrids.get(archive);
  if (grid === undefined) {
    grid = readArchiveJson<{ features: GridCellFeature[] }>(OIL_PALM_GRID_HREF, archive, signal);
    palmGrids.set(archive, grid);
    grid.catch(() => palmGrids.delete(archive));
  }
  return grid;
}

async function planOilPalm(archive: Archive, box: Bbox, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared['oilPalm'] }> {
  const citation = oilPalmProvenance('', archive.where).citation;
  try {
    const cells = oilPalmCells(await palmGrid(archive, signal), box);
    if (cells.length === 0) return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'outside_coverage', why: 'the map covers the producing regions only' } } };
    const [extent, years] = await Promise.all((['OP-extent', 'YoP'] as const).map(async (layer) => requestForBox(await archive.cogs.open(oilPalmHref(layer, cells[0]), { signal }), box)));
    return { requests: [extent, years], prepared: { citation, state: 'read', extent: extent.key, years: years.key } };
  } catch (err) {
    return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: unlessAborted(err, signal) } } };
  }
}

async function planRubber(plot: ContextPlot, archive: Archive, box: Bbox, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared['rubber'] }> {
  const tile = euForestTile(...plot.centroid);
  const citation = rubberProvenance(tile, archive.where).citation;
  if (!rubberCovers(...plot.centroid)) return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'outside_coverage', why: 'the plot lies outside it' } } };
  if (!rubberReadable(archive.where)) {
    return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: 'the map is published as an Earth Engine asset only and no mirror of it is configured' } } };
  }
  try {
    const classes = requestForBox(await archive.cogs.open(rubberHref(tile), { signal }), box);
    return { requests: [classes], prepared: { citation, state: 'read', classes: classes.key } };
  } catch (err) {
    return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: unlessAborted(err, signal) } } };
  }
}

export async function planCommodityMaps(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared }> {
  const box = footprintBox(plot.footprint, 60);
  const [palm, rubber] = await Promise.all([planOilPalm(archive, box, signal), planRubber(plot, archive, box, signal)]);
  return { requests: [...palm.requests, ...rubber.requests], prepared: { oilPalm: palm.prepared, rubber: rubber.prepared } };
}

