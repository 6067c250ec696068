// Reads the PALSAR mosaics, trying the mirrors in order (codes.ts holds tiles, mirrors and values).
import type { RasterWindow } from '../../cog.ts';
import { isSourceError, isTransient } from '../../errors.ts';
import { CogOpener, PlanetaryComputerSigner, type ProductDeps } from '../cog-opener.ts';
import type { Provenance } from '../provenance.ts';
import { PALSAR_CF_DB, PALSAR_MIRRORS, type PalsarMirror, palsarNodata, palsarProvenance, palsarYearExists } from './codes.ts';

export interface PalsarRead {
  /** The mirror that served the read (`radar.mirror`). */
  mirror: PalsarMirror['name'];
  year: number;
  /** HH and HV as DN, the mask band as codes; one window each, on one grid. */
  bands: Record<'HH' | 'HV' | 'mask', RasterWindow>;
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
  /** Reads HH, HV and mask over a box (lon/lat) around a point, trying the mirrors in order. */
  read(lon: number, lat: number, bbox: [number, number, number, number], year: number, signal?: AbortSignal): Promise<PalsarRead>;
}

/** Mirror failures worth moving on for: the mirror's fault or absence, not a broken request. */
export function mirrorMayFail(err: unknown): boolean {
  return isTransient(err) || isSourceError(err, 'not_found') || isSourceError(err, 'http_status') || isSourceError(err, 'invalid_tiff');
}

export function createPalsarAdapter(opts: ProductDeps & { mirrors?: readonly PalsarMirror[] }): PalsarAdapter {
  const mirrors = opts.mirrors ?? PALSAR_MIRRORS;
  const cogs = new CogOpener(opts);
  const signer = new PlanetaryComputerSigner(opts);
  return {
    async read(lon, lat, bbox, year, signal) {
      if (!palsarYearExists(year)) throw new PalsarUnavailableError(`no PALSAR mosaic exists for ${year}`, []);
      const failedOver: PalsarRead['failedOver'] = [];
      const causes: Array<{ mirror: string; error: unknown }> = [];
      for (const mirror of mirrors) {
        if (!mirror.covers(lon, lat)) continue;
        try {
          const query = mirror.sasTokenUrl ? await signer.query(mirror.sasTokenUrl, signal) : undefined;
          // Every band settles before the mirror is judged, so a failed read leaves nothing in flight behind it.
          const settled = await Promise.allSettled((['HH', 'HV', 'mask'] as const).map(async (band) =>
            (await cogs.open(mirror.href(lon, lat, year, band), { query, signal })).readBbox(bbox, 'EPSG:4326', signal)));
          const refused = settled.find((r) => r.status === 'rejected');
          if (refused) throw refused.reason;
          const [hh, hv, mask] = settled.map((r) => (r as PromiseFulfilledResult<RasterWindow>).value);
          return {
            mirror: mirror.name, year, bands: { HH: hh, HV: hv, mask }, nodata: palsarNodata(year, 'HV'), calibrationDb: PALSAR_CF_DB,
            failedOver, provenance: palsarProvenance(lon, lat, year, mirror, opts.where),
          };
        } catch (err) {
          if (signal?.aborted || !mirrorMayFail(err)) throw err;
          causes.push({ mirror: mirror.name, error: err });
          failedOver.push({ mirror: mirror.name, code: (err as { code?: string }).code ?? 'error', message: (err as Error).message });
        }
      }
      throw new PalsarUnavailableError(
        causes.length === 0 ? `no PALSAR mirror covers ${lon}, ${lat}` : `every PALSAR mirror failed for ${year}: ${failedOver.map((f) => `${f.mirror} (${f.code})`).join(', ')}`,
        causes,
      );
    },
  };
}
