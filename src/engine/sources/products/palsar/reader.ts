// Plans reads of the PALSAR mosaics: the one place the mirrors are tried in order and a failed
// mirror is judged (codes.ts holds tiles, mirrors and values).
import { isSourceError, isTransient, type SourceErrorCode } from '../../errors.ts';
import { type ProductWindows, tilesRead } from '../../raster-request.ts';
import type { Bbox } from '../../reproject.ts';
import { CogOpener, layersOverTiles, PlanetaryComputerSigner, type ProductDeps } from '../cog-opener.ts';
import { cellsTouching } from '../grid.ts';
import type { Provenance } from '../provenance.ts';
import { PALSAR_CF_DB, PALSAR_MIRRORS, type PalsarMirror, palsarNodata, palsarProvenance, palsarTile1, palsarTile5, palsarYearExists } from './codes.ts';

export type PalsarLayer = 'HH' | 'HV' | 'mask';

export interface PalsarWindows extends ProductWindows<PalsarLayer> {
  /** The mirror that served (`radar.mirror`). */
  mirror: PalsarMirror['name'];
  year: number;
  /** DN marking no data in HH/HV this year. */
  nodata: number;
  calibrationDb: number;
  /** Mirrors tried before the one that served, with why they failed. */
  failedOver: Array<{ mirror: PalsarMirror['name']; code: string; message: string }>;
  provenance: Provenance;
}

export class PalsarUnavailableError extends Error {
  readonly code = 'radar_unavailable';
  readonly causes: Array<{ mirror: string; error: unknown }>;
  constructor(message: string, causes: Array<{ mirror: string; error: unknown }>) {
    super(message);
    this.name = 'PalsarUnavailableError';
    this.causes = causes;
  }
}

export interface PalsarAdapter {
  /**
   * HH, HV and mask over a box (lon/lat), from every tile of the mirror's grid the box touches,
   * one grid for all three: the mirrors whose ground holds the whole box are tried in order and
   * the first that holds the year serves.
   */
  windows(box: Bbox, year: number, signal?: AbortSignal): Promise<PalsarWindows>;
}

const MIRROR_FAULTS: readonly SourceErrorCode[] = ['not_found', 'http_status', 'invalid_tiff', 'window_outside'];

/**
 * Mirror failures worth moving on for: the mirror's fault or absence (down, no such file, not a
 * readable file, or a file that does not reach the ground), not a broken request.
 */
export function mirrorMayFail(err: unknown): boolean {
  return isTransient(err) || MIRROR_FAULTS.some((code) => isSourceError(err, code));
}

const boxCorners = ([w, s, e, n]: Bbox): Array<[number, number]> => [[w, s], [e, s], [e, n], [w, n]];

export function createPalsarAdapter(opts: ProductDeps & { mirrors?: readonly PalsarMirror[] }): PalsarAdapter {
  const mirrors = opts.mirrors ?? PALSAR_MIRRORS;
  const cogs = new CogOpener(opts);
  const signer = new PlanetaryComputerSigner(opts);
  return {
    async windows(box, year, signal) {
      if (!palsarYearExists(year)) throw new PalsarUnavailableError(`no PALSAR mosaic exists for ${year}`, []);
      const failedOver: PalsarWindows['failedOver'] = [];
      const causes: Array<{ mirror: string; error: unknown }> = [];
      for (const mirror of mirrors) {
        // The box's corners, not a point inside it: a mirror covering part of the box would read the rest as missing.
        if (!boxCorners(box).every(([lon, lat]) => mirror.covers(lon, lat))) continue;
        try {
          const query = mirror.sasTokenUrl ? await signer.query(mirror.sasTokenUrl, signal) : undefined;
          const cells = new Map(cellsTouching(box, mirror.tileDegrees).map(([x, y]) => [mirror.tileDegrees === 1 ? palsarTile1(x, y) : palsarTile5(x, y), [x, y] as const]));
          const planned = await layersOverTiles(box, [...cells.keys()], ['HH', 'HV', 'mask'] as const, (band, tile) => ({
            open: (name) => cogs.open(mirror.href(cells.get(tile)![0], cells.get(tile)![1], year, band), { name, query, signal }),
            provenance: palsarProvenance([tile], year, mirror, opts.where),
            encoding: () => ({ scale: 1, offset: 0, nodata: palsarNodata(year, band) }),
          }));
          return { ...planned, mirror: mirror.name, year, nodata: palsarNodata(year, 'HV'), calibrationDb: PALSAR_CF_DB, failedOver, provenance: palsarProvenance(tilesRead(planned), year, mirror, opts.where) };
        } catch (err) {
          if (signal?.aborted || !mirrorMayFail(err)) throw err;
          causes.push({ mirror: mirror.name, error: err });
          failedOver.push({ mirror: mirror.name, code: (err as { code?: string }).code ?? 'error', message: (err as Error).message });
        }
      }
      throw new PalsarUnavailableError(
        causes.length === 0 ? `no PALSAR mirror covers the box ${box.join(', ')}` : `every PALSAR mirror failed for ${year}: ${failedOver.map((f) => `${f.mirror} (${f.code})`).join(', ')}`,
        causes,
      );
    },
  };
}
