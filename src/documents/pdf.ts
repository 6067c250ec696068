/**
 * pdfmake on the server. Text is set in Roboto, embedded from the files pdfmake ships, so a
 * document renders the same offline and carries every glyph it uses (≥, γ⁰, accented place
 * names); digests and identifiers are set in Courier, a PDF standard font that needs no file.
 * Documents fetch nothing: no URL may be read, and no local file but those fonts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import pdfmake from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';

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
