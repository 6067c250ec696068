#!/usr/bin/env python3
"""The baseline a geospatial engineer would write for a plot book's optical record, with GDAL.

For each plot, in the order given, for each Sentinel-2 scene: read the red, NIR and SCL windows
over the plot from the scene's COGs (datasets kept open, so GDAL's block cache serves later plots),
rasterise the plot into the 10 m window, keep clear pixels (SCL vegetation, bare soil, water,
unclassified) and take the median NDVI. Run as one process or as N processes (contiguous shares
of the plots). Prints one JSON line: plots, seconds, plots a minute, CPU seconds (every process), plots a CPU minute,
scene medians computed.

usage: gdal-book.py JOB.json [--procs N] [--cache-mb M]
"""
import json
import multiprocessing as mp
import resource
import sys
import time

import numpy as np
from osgeo import gdal, ogr, osr

gdal.UseExceptions()
CLEAR_SCL = np.array([4, 5, 6, 7])


def read_share(args):
    plots, scenes, cache_mb = args
    gdal.SetCacheMax(cache_mb * 1024 * 1024)
    opened = {}

    def ds(path):
        d = opened.get(path)
        if d is None:
            d = opened[path] = gdal.Open(path)
        return d

    wgs84 = osr.SpatialReference()
    wgs84.ImportFromEPSG(4326)
    wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    transforms = {}
    medians = 0
    out = []
    for plot in plots:
        ring = plot['ring']
        row = []
        for s in scenes:
            red = ds(s['red'])
            epsg = s['epsg']
            if epsg not in transforms:
                dst = osr.SpatialReference()
                dst.ImportFromEPSG(epsg)
                dst.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
                transforms[epsg] = (osr.CoordinateTransformation(wgs84, dst), dst)
            ct, dst = transforms[epsg]
            poly = ogr.CreateGeometryFromJson(json.dumps({'type': 'Polygon', 'coordinates': [ring]}))
            poly.Transform(ct)
            minx, maxx, miny, maxy = poly.GetEnvelope()
            gt = red.GetGeoTransform()
            x0 = int(np.floor((minx - gt[0]) / gt[1]))
            x1 = int(np.ceil((maxx - gt[0]) / gt[1]))
            y0 = int(np.floor((maxy - gt[3]) / gt[5]))
            y1 = int(np.ceil((miny - gt[3]) / gt[5]))
            w, h = x1 - x0, y1 - y0
            r = red.GetRasterBand(1).ReadAsArray(x0, y0, w, h).astype(np.float32)
            n = ds(s['nir']).GetRasterBand(1).ReadAsArray(x0, y0, w, h).astype(np.float32)
            # SCL is at 20 m: the 10 m window's 20 m pixels, each repeated over its four 10 m pixels.
            sx0, sy0 = x0 // 2, y0 // 2
            scl = ds(s['scl']).GetRasterBand(1).ReadAsArray(sx0, sy0, (x0 + w + 1) // 2 - sx0, (y0 + h + 1) // 2 - sy0)
            scl = np.repeat(np.repeat(scl, 2, axis=0), 2, axis=1)[y0 - 2 * sy0:y0 - 2 * sy0 + h, x0 - 2 * sx0:x0 - 2 * sx0 + w]
            mem = gdal.GetDriverByName('MEM').Create('', w, h, 1, gdal.GDT_Byte)
            mem.SetGeoTransform((gt[0] + x0 * gt[1], gt[1], 0, gt[3] + y0 * gt[5], 0, gt[5]))
            mem.SetProjection(dst.ExportToWkt())
            layer_ds = ogr.GetDriverByName('Memory').CreateDataSource('')
            layer = layer_ds.CreateLayer('plot', dst, ogr.wkbPolygon)
            f = ogr.Feature(layer.GetLayerDefn())
            f.SetGeometry(poly)
            layer.CreateFeature(f)
            gdal.RasterizeLayer(mem, [1], layer, burn_values=[1])
            inside = mem.GetRasterBand(1).ReadAsArray().astype(bool)
            keep = inside & np.isin(scl, CLEAR_SCL) & (r > 0) & (n > 0)
            if keep.any():
                rr = r[keep] * s['scale'] + s['offset']
                nn = n[keep] * s['scale'] + s['offset']
                with np.errstate(divide='ignore', invalid='ignore'):
                    v = (nn - rr) / (nn + rr)
                v = v[np.isfinite(v)]
                row.append(float(np.median(v)) if v.size else None)
                medians += 1
            else:
                row.append(None)
        out.append(row)
    return medians, out


def main():
    job = json.load(open(sys.argv[1]))
    procs = int(sys.argv[sys.argv.index('--procs') + 1]) if '--procs' in sys.argv else 1
    cache_mb = int(sys.argv[sys.argv.index('--cache-mb') + 1]) if '--cache-mb' in sys.argv else 512
    plots, scenes = job['plots'], job['scenes']
    t = time.perf_counter()
    cpu = lambda: sum(getattr(resource.getrusage(w), f) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN) for f in ('ru_utime', 'ru_stime'))
    cpu0 = cpu()
    if procs == 1:
        results = [read_share((plots, scenes, cache_mb))]
    else:
        size = -(-len(plots) // procs)
        shares = [(plots[k:k + size], scenes, cache_mb) for k in range(0, len(plots), size)]
        with mp.get_context('fork').Pool(procs) as pool:
            results = pool.map(read_share, shares)
    seconds = time.perf_counter() - t
    # CPU of this process and its workers (reaped when the pool closes), so a core's throughput is comparable.
    cpu_seconds = cpu() - cpu0
    medians = sum(m for m, _ in results)
    values = [row for _, rows in results for row in rows]
    print(json.dumps({'plots': len(plots), 'scenes': len(scenes), 'procs': procs, 'cache_mb': cache_mb, 'seconds': round(seconds, 2),
                      'plots_per_minute': round(len(plots) / (seconds / 60), 1), 'cpu_seconds': round(cpu_seconds, 2),
                      'plots_per_cpu_minute': round(len(plots) / (cpu_seconds / 60), 1), 'scene_medians': medians,
                      'first_plot_medians': values[0][:5] if values else []}))


if __name__ == '__main__':
    main()
