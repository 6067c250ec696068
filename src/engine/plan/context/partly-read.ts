// The windows of a block's plan that a missing file left partly unread (context/partly-read.ts).
import type { PartlyRead } from '../../context/partly-read.ts';
import type { RasterRequest } from '../../sources/raster-request.ts';

/** `{ partlyRead }` naming each mosaic with a missing file and the rectangles its files fill; nothing when every file was read. */
export function partlyReadOf(requests: readonly RasterRequest[]): { partlyRead?: PartlyRead } {
  const partial = requests.filter((r) => r.fill !== undefined && r.parts !== undefined);
  if (partial.length === 0) return {};
  return { partlyRead: Object.fromEntries(partial.map((r) => [r.key, r.parts!.map((p) => ({ x: p.x, y: p.y, width: p.window.width, height: p.window.height }))])) };
}
