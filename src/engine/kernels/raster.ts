/** A window of raw archive values, row-major, one band. */
export type Raster = Uint8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/**
 * How raw values map to physical ones: physical = raw × scale + offset. `nodata` is compared
 * with the raw value; NaN in a float raster is always treated as no data.
 */
export interface Encoding {
  readonly scale: number;
  readonly offset: number;
  readonly nodata: number | null;
}

/** A class raster with a lookup indexed by class value (1 = keep), e.g. SCL classes or QA_PIXEL words. */
export interface ClassTest {
  readonly classes: Raster;
  readonly lookup: Uint8Array;
}
