// The commodity_maps block's planning half: the oil palm cells and the rubber tiles over the plot.
import type { Archive } from '../../archive.ts';
import type { CommodityMapsPrepared } from '../../context/commodity-maps.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { oilPalmProvenance, rubberProvenance } from '../../sources/products/commodity-maps/codes.ts';
import type { Bbox } from '../../sources/reproject.ts';
import type { RasterRequest } from '../../sources/raster-request.ts';
import { unlessAbortedOrTransient } from './not-read.ts';
import { partlyReadOf } from './partly-read.ts';

async function planOilPalm(archive: Archive, box: Bbox, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared['oilPalm'] }> {
  // The citation names the map, whichever cell is read.
  const citation = oilPalmProvenance('', archive.where).citation;
  try {
    const palm = await archive.oilPalm.windows(box, signal);
    if (!palm.covered) return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'outside_coverage', why: 'the map covers the producing regions only' } } };
    const { 'OP-extent': extent, YoP: years } = palm.layers;
    const requests = [extent.request, years.request];
    return { requests, prepared: { citation: extent.provenance.citation, state: 'read', extent: extent.request.key, years: years.request.key, ...partlyReadOf(requests) } };
  } catch (err) {
    return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: unlessAbortedOrTransient(err, signal) } } };
  }
}

async function planRubber(archive: Archive, box: Bbox, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared['rubber'] }> {
  const citation = rubberProvenance('', archive.where).citation;
  try {
    const rubber = await archive.rubber.windows(box, signal);
    if (!rubber.covered) return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'outside_coverage', why: 'the plot lies outside it' } } };
    if (!rubber.readable) {
      return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: 'the map is published as an Earth Engine asset only and no mirror of it is configured' } } };
    }
    const { classes } = rubber.layers;
    return { requests: [classes.request], prepared: { citation: classes.provenance.citation, state: 'read', classes: classes.request.key, ...partlyReadOf([classes.request]) } };
  } catch (err) {
    return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: unlessAbortedOrTransient(err, signal) } } };
  }
}

export async function planCommodityMaps(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared }> {
  const box = footprintBox(plot.footprint, 60);
  const [palm, rubber] = await Promise.all([planOilPalm(archive, box, signal), planRubber(archive, box, signal)]);
  return { requests: [...palm.requests, ...rubber.requests], prepared: { oilPalm: palm.prepared, rubber: rubber.prepared } };
}
