/**
 * pdfmake on the server. Text is set in Roboto, embedded from the files pdfmake ships, so a
 * document renders the same offline and carries every glyph it uses (≥, γ⁰, accented place
 * names); digests and identifiers are set in Courier, a PDF standard font that needs no file.
 * Documents fetch nothing: no URL may be read, and no local file but those fonts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import pdfmake from 'pdfmake';
import type { Readable } from 'node:stream';
import type { Content, Style, StyleDictionary, TDocumentDefinitions } from 'pdfmake/interfaces.js';

const fontsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')), 'fonts', 'Roboto');

const FONTS = {
  Roboto: {
    normal: path.join(fontsDir, 'Roboto-Regular.ttf'),
    bold: path.join(fontsDir, 'Roboto-Medium.ttf'),
    italics: path.join(fontsDir, 'Roboto-Italic.ttf'),
    bolditalics: path.join(fontsDir, 'Roboto-MediumItalic.ttf'),
  },
  // Standard PDF fonts are named, not read from disk.
  Courier: { normal: 'Courier', bold: 'Courier-Bold', italics: 'Courier-Oblique', bolditalics: 'Courier-BoldOblique' },
};
const READABLE = new Set<string>([...Object.values(FONTS.Roboto), ...Object.values(FONTS.Courier)]);

pdfmake.setFonts(FONTS);
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((file) => READABLE.has(file));

/**
 * The PDF bytes of a document definition. With `info.creationDate` fixed by the caller the output
 * is a function of the definition alone, byte for byte.
 */
export function renderPdf(definition: TDocumentDefinitions): Promise<Buffer> {
  return pdfmake.createPdf(definition).getBuffer();
}

// pdfmake's layout engine and renderer, driven part by part below: its public API lays out a whole
// document before writing a page, holding every page's items until the end.
const internal = createRequire(import.meta.url);
interface LaidOutPage { pageSize: { width: number; height: number } }
type Dynamic = (page: number, pages: number) => Content;
interface LayoutBuilder {
  registerTableLayouts(layouts: object): void;
  layoutDocument(content: Content[], doc: object, styles: StyleDictionary, defaultStyle: Style, background: null, header: Dynamic, footer: Dynamic): LaidOutPage[];
}
const LayoutBuilder = internal('pdfmake/js/LayoutBuilder.js').default as new (size: object, margins: object, svg: object) => LayoutBuilder;
const Renderer = internal('pdfmake/js/Renderer.js').default as new (doc: object) => { renderPages(pages: LaidOutPage[]): void };
const SVGMeasure = internal('pdfmake/js/SVGMeasure.js').default as new () => object;
const MakeDocument = internal('pdfmake/js/PDFDocument.js').default as new (fonts: object, images: object, patterns: object, attachments: object, options: object, vfs: object, policy: (file: string) => boolean) => Readable & { end(): void };
const { tableLayouts } = internal('pdfmake/js/tableLayouts.js') as { tableLayouts: object };
const { normalizePageSize, normalizePageMargin } = internal('pdfmake/js/PageSize.js') as { normalizePageSize(size: string): { width: number; height: number }; normalizePageMargin(margins: number[]): object };
const virtualfs = internal('pdfmake/js/virtual-fs.js').default as object;

/**
 * pdfkit keeps the glyph layout of every word it has set, for the document's life: a list of
 * 100,000 plot references would keep 100,000 of them (about 2 KB each). Dropped after each part,
 * which keeps the words a part repeats.
 */
function forgetLayouts(doc: object): void {
  const fonts = (doc as { _fontFamilies?: Record<string, { layoutCache?: object }> })._fontFamilies ?? {};
  for (const font of Object.values(fonts)) if (font.layoutCache !== undefined) font.layoutCache = Object.create(null) as object;
}

/** What every part of a streamed document shares: page, styles, header and footer by page number in the whole document. */
export interface StreamedFrame {
  pageSize: 'A4';
  pageMargins: [number, number, number, number];
  info: { title: string; author: string; creator: string; creationDate: Date };
  defaultStyle: Style;
  styles: StyleDictionary;
  header: (page: number) => Content;
  footer: (page: number) => Content;
}

/**
 * A PDF written part by part: each part is laid out alone and its pages are written, then sent
 * through `send`, before the next part is asked for, so a document of any length holds one part's
 * layout at a time. A part starts on a new page. The page count is not known until the last part,
 * so headers and footers get the page's number alone.
 */
export async function streamPdf(frame: StreamedFrame, parts: Iterable<Content[]> | AsyncIterable<Content[]>, send: (bytes: Uint8Array) => Promise<void>): Promise<{ pages: number; bytes: number }> {
  const size = normalizePageSize(frame.pageSize);
  const doc = new MakeDocument(FONTS, {}, {}, {}, {
    size: [size.width, size.height],
    pdfVersion: '1.3',
    compress: true,
    fontLayoutCache: true,
    bufferPages: false,
    autoFirstPage: false,
    info: { Producer: 'pdfmake', Creator: frame.info.creator, Title: frame.info.title, Author: frame.info.author, CreationDate: frame.info.creationDate, ModDate: frame.info.creationDate },
    font: null,
  }, virtualfs, (file) => READABLE.has(file));
  const written: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => written.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  let bytes = 0;
  const flush = async () => {
    // pdfkit pushes into its stream on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    if (written.length === 0) return;
    const chunk = Buffer.concat(written.splice(0));
    bytes += chunk.length;
    await send(chunk);
  };
  let pages = 0;
  for await (const part of parts) {
    const builder = new LayoutBuilder(size, normalizePageMargin(frame.pageMargins), new SVGMeasure());
    builder.registerTableLayouts(tableLayouts);
    const before = pages;
    const laidOut = builder.layoutDocument(part, doc, frame.styles, frame.defaultStyle, null, (page) => frame.header(before + page), (page) => frame.footer(before + page));
    new Renderer(doc).renderPages(laidOut);
    pages += laidOut.length;
    forgetLayouts(doc);
    await flush();
  }
  doc.end();
  await ended;
  await flush();
  return { pages, bytes };
}
