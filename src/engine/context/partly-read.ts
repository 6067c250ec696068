// Which pixels of a window were read from files when a file of its mosaic is missing. The rest
// read as the fill, which for maps without a nodata value is a class (0 is "not forest"), so a
// block counts only the pixels read.

/** A rectangle of a window's pixels: columns x to x + width, rows y to y + height. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Window key → the rectangles read from files, for the windows a missing file left partly unread; a window not listed was read whole. */
export type PartlyRead = Record<string, PixelRect[]>;
