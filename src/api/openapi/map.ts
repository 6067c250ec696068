/** Map tiles, the imagery timeline and archive coverage (spec 4.10, last paragraph: shapes not shown there, designed here). */
import { COVERAGE_PRODUCTS } from '../../reading-service/archive-coverage.ts';
import { CHANGE_LAYERS, IMAGERY_LAYERS, ZOOMS } from '../../engine/map-layers.ts';
import { SEASON_SCENES } from '../../engine/plan/map-tile.ts';
import { authRefusals, json, nullable, ref, refusal, uuid, type Schema } from './common.ts';

const share: Schema = { type: 'number', minimum: 0, maximum: 1 };
const date: Schema = { type: 'string', format: 'date' };
const rgba: Schema = { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 }, minItems: 4, maxItems: 4, description: 'Red, green, blue, alpha (0–255).' };
const strings: Schema = { type: 'array', items: { type: 'string' } };

export const mapSchemas: Record<string, Schema> = {
  ImageryTimeline: {
    type: 'object',
    required: ['plot_id', 'synthetic', 'scenes'],
    additionalProperties: false,
    description: 'Every scene the plot\'s live evidence searched, oldest first, drawn from the stored evidence itself: the kept ones are its `scenes`, the skipped ones its `skipped`.',
    properties: {
      plot_id: uuid,
      synthetic: { type: 'boolean', description: 'True when the evidence was read from the generated demo archive.' },
      scenes: { type: 'array', items: ref('TimelineScene') },
    },
  },
  TimelineScene: {
    type: 'object',
    required: ['id', 'product', 'date', 'kept', 'reason', 'clear_share', 'ndvi', 'thumbnail_url'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', description: 'The scene identifier, as the evidence names it and as `scene=` of the imagery tiles takes it.' },
      product: nullable({ type: 'string', description: 'The catalogue collection that publishes it (`sentinel-2-l2a`, `landsat-c2-l2`).' }),
      date: nullable(date),
      kept: { type: 'boolean', description: 'Read into the record (in the evidence\'s `scenes`), or skipped (in its `skipped`).' },
      reason: nullable({ type: 'string', description: 'Why a skipped scene was not read, as the evidence says; null for a kept scene.' }),
      clear_share: nullable({ ...share, description: 'Share of the plot clear in the scene (the evidence\'s `series`); null for a skipped scene or evidence read before the series was stored.' }),
      ndvi: nullable({ type: 'number', description: 'The median vegetation index of the plot\'s clear pixels (the evidence\'s `series`); null where the evidence stores none.' }),
      thumbnail_url: { type: 'string', format: 'uri', description: 'The true-colour map tile around the plot drawn from this scene (GET /tiles/true_colour/…?scene=).' },
    },
  },
  ChangeLegend: {
    type: 'object',
    required: ['layer', 'title', 'value', 'classes', 'source', 'licence', 'attribution', 'citation'],
    additionalProperties: false,
    properties: {
      layer: { enum: [...CHANGE_LAYERS] },
      title: { type: 'string' },
      value: { type: 'string', description: 'What a source pixel\'s value is before it is classed.' },
      classes: {
        type: 'array',
        description: 'A pixel whose value lies in [from, to] is drawn in the class\'s colour; a value no class holds is transparent.',
        items: {
          type: 'object',
          required: ['label', 'from', 'to', 'rgba'],
          additionalProperties: false,
          properties: { label: { type: 'string' }, from: { type: 'number' }, to: { type: 'number' }, rgba },
        },
      },
      source: { type: 'object', required: ['dataset', 'version'], additionalProperties: false, properties: { dataset: { type: 'string' }, version: { type: 'string' } } },
      licence: { type: 'string' },
      attribution: { type: 'string', description: 'To be shown with the layer.' },
      citation: { type: 'string' },
    },
  },
  ArchiveCoverage: {
    type: 'object',
    required: ['plot_id', 'place', 'synthetic', 'products', 'review_price'],
    additionalProperties: false,
    properties: {
      plot_id: nullable(uuid),
      place: { type: 'object', required: ['lon', 'lat'], additionalProperties: false, properties: { lon: { type: 'number' }, lat: { type: 'number' } }, description: 'The centre of what was looked up.' },
      synthetic: { type: 'boolean', description: 'True when the archive is the generated demo world.' },
      products: { type: 'array', items: ref('ProductCoverage') },
      review_price: ref('ArchiveReviewPrice'),
    },
  },
  ProductCoverage: {
    type: 'object',
    required: ['product', 'dataset', 'covered', 'tiles', 'years', 'versions', 'last_scene_date', 'note'],
    additionalProperties: false,
    properties: {
      product: {
        enum: [...COVERAGE_PRODUCTS],
        description: 'Every product is listed, covered or not: the optical scenes (`sentinel-2`, `landsat`), the radar mosaics (`palsar`), the canopy-height map (`canopy-height`), the terrain model (`copernicus-dem`), the loss maps (`hansen`, `tmf`) and the published alerts (`integrated-alerts`, `radd-alerts`).',
      },
      dataset: { type: 'string', description: 'The collection or dataset read.' },
      covered: { type: 'boolean', description: 'False outside the product\'s coverage (then `tiles`, `years` and `versions` are empty and `note` says why), or when it could not be asked just now.' },
      tiles: { ...strings, description: 'The archive\'s tiles over the place: MGRS squares (Sentinel-2), WRS-2 path/rows (Landsat), 1° tiles (the terrain model; PALSAR on its global mirror, 5° on its African one), 3° tiles (canopy height), 10° tiles (loss maps). Empty for the alerts, which are asked of the publisher\'s API.' },
      years: {
        type: 'array',
        items: { type: 'integer' },
        description: 'Years it holds data for over the place, ascending: the years of scenes found; the radar years the evidence reads (2019, 2020) that a mirror holds; the map\'s year (canopy height); the loss maps\' years; for the alerts, the years since the cutoff up to the version\'s. Empty for the terrain model, one surface.',
      },
      versions: { ...strings, description: 'Processing baselines (Sentinel-2), collection (Landsat), each radar year with the mirror that holds it, the release of a map, or the alerts\' version (`vYYYYMMDD`, the newest the publisher\'s catalogue reports as loaded).' },
      last_scene_date: nullable({ ...date, description: 'The latest scene over the place (optical products); null for the others.' }),
      note: nullable({ type: 'string', description: 'Why it is not covered, or could not be asked just now; null when covered.' }),
    },
  },
};

const tileParams = (layers: readonly string[]) => [
  { name: 'layer', in: 'path', required: true, schema: { type: 'string' }, description: `One of ${layers.map((l) => `\`${l}\``).join(', ')}.` },
  { name: 'z', in: 'path', required: true, schema: { type: 'integer' }, description: `Zoom: ${layers.map((l) => `\`${l}\` ${ZOOMS[l as keyof typeof ZOOMS].min}–${ZOOMS[l as keyof typeof ZOOMS].max}`).join(', ')}.` },
  { name: 'x', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } },
  { name: 'y', in: 'path', required: true, schema: { type: 'integer', minimum: 0 }, description: 'Row, counted from the north (XYZ).' },
];
const workspaceQuery = { name: 'workspace', in: 'query', required: false, schema: uuid, description: 'A signed-in session names its workspace here (or with X-Workspace-Id), so a map can load tiles as plain image URLs.' };

const png = {
  description: 'The tile: a 256 × 256 PNG in Web Mercator (EPSG:3857), transparent wherever the archive holds nothing (outside coverage is a transparent tile, not an error).',
  headers: {
    ETag: { description: 'Names everything the tile\'s pixels depend on; send it back as If-None-Match.', schema: { type: 'string' } },
    'Cache-Control': { description: '`private, max-age=86400`, or an hour for tiles that may still change (alerts, the current year\'s season).', schema: { type: 'string' } },
  },
  content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
};
const notModified = { description: 'The tile named by If-None-Match is current.' };
const busy = refusal('As many tiles as the service draws at once are waiting; ask again after Retry-After', ['busy']);

export const mapPaths = {
  '/tiles/{layer}/{z}/{x}/{y}.png': {
    get: {
      operationId: 'getImageryTile',
      summary: 'An imagery map tile: true colour or the vegetation index, of one scene or of a season',
      description:
        `\`true_colour\` draws red, green and blue reflectance; \`ndvi\` the vegetation index from brown (bare) through yellow to green (dense). \`scene=\` draws one scene as it was seen, clouds and all (the timeline's scenes, Sentinel-2 or Landsat). \`season=\` draws the per-pixel median of the clear pixels (the scene classification the evidence uses) of that year's clearest Sentinel-2 acquisitions, at most ${SEASON_SCENES}. Drawn from the same archive files, caches and worker pool as evidence.`,
      parameters: [
        ...tileParams(IMAGERY_LAYERS),
        { name: 'scene', in: 'query', required: false, schema: { type: 'string' }, description: 'A scene identifier, as the evidence\'s `scenes` and `skipped` and the timeline name it.' },
        { name: 'season', in: 'query', required: false, schema: { type: 'integer', minimum: 2015 }, description: 'A year: the median of its clear scenes. Give `scene` or `season`, one of them.' },
        workspaceQuery,
      ],
      responses: {
        '200': png,
        '304': notModified,
        ...authRefusals,
        '422': refusal('An unknown layer, a zoom outside the layer\'s range, x or y outside the zoom\'s grid, neither or both of scene and season, or a malformed one', ['bad_layer', 'bad_zoom', 'bad_tile', 'bad_scene', 'bad_season']),
        '503': busy,
      },
    },
  },
  '/change/tiles/{layer}/{z}/{x}/{y}.png': {
    get: {
      operationId: 'getChangeTile',
      summary: 'A change map tile: moist-forest loss by year (TMF), tree-cover loss by year (Hansen), or published alerts by confidence',
      description: 'Colours and classes as the layer\'s legend states. Loss before the cutoff is drawn muted, each year after it in its own colour; alerts are those published since 2021-01-01, drawn as their 10 m cells.',
      parameters: [...tileParams(CHANGE_LAYERS), workspaceQuery],
      responses: {
        '200': png,
        '304': notModified,
        ...authRefusals,
        '422': refusal('An unknown layer, a zoom outside the layer\'s range, or x or y outside the zoom\'s grid', ['bad_layer', 'bad_zoom', 'bad_tile']),
        '503': busy,
      },
    },
  },
  '/change/tiles/{layer}/legend': {
    get: {
      operationId: 'getChangeLegend',
      summary: 'A change layer\'s legend: its classes and colours, source, licence and attribution',
      parameters: [{ name: 'layer', in: 'path', required: true, schema: { type: 'string' }, description: `One of ${CHANGE_LAYERS.map((l) => `\`${l}\``).join(', ')}.` }],
      responses: {
        '200': json(ref('ChangeLegend')),
        ...authRefusals,
        '422': refusal('An unknown layer', ['bad_layer']),
      },
    },
  },
  '/portal/plots/{id}/timeline': {
    get: {
      operationId: 'getPlotImageryTimeline',
      summary: 'The plot\'s imagery timeline: every scene its evidence searched, kept or skipped with why, with its clear share, vegetation index and a thumbnail',
      parameters: [{ name: 'id', in: 'path', required: true, schema: uuid }],
      responses: {
        '200': json(ref('ImageryTimeline')),
        ...authRefusals,
        '404': refusal('No such plot in the workspace', ['not_found']),
        '409': refusal('The read has not finished, or the evidence was withdrawn; the message names the plot\'s state', ['no_evidence']),
      },
    },
  },
  '/portal/coverage': {
    get: {
      operationId: 'getArchiveCoverage',
      summary: 'Which archives cover a plot or a point: tiles, years, versions and the latest scene, with the archive review price',
      description: 'Looks up every product over the plot\'s boundary or the point, as a read finds it: the optical scenes (Sentinel-2, Landsat), the radar mosaics (PALSAR, from the first mirror holding each year), the canopy-height map, the terrain model (Copernicus DEM), the loss maps (Hansen, TMF) and the published alerts (integrated and RADD, published from 30°S to 30°N, at the version the publisher\'s catalogue names). A product outside its coverage is listed with `covered: false` and a note. `review_price` is the archive imagery review\'s price (spec 2.14 `archive_review_price`).',
      parameters: [
        { name: 'plot_id', in: 'query', required: false, schema: uuid, description: 'A plot of the workspace; or give lat and lon.' },
        { name: 'lat', in: 'query', required: false, schema: { type: 'number', minimum: -90, maximum: 90 } },
        { name: 'lon', in: 'query', required: false, schema: { type: 'number', minimum: -180, maximum: 180 } },
      ],
      responses: {
        '200': json(ref('ArchiveCoverage')),
        ...authRefusals,
        '404': refusal('No such plot in the workspace, or a plot with no boundary or point', ['not_found']),
        '422': refusal('Neither a plot nor a point, both, or a latitude or longitude out of range', ['bad_place']),
      },
    },
  },
};
