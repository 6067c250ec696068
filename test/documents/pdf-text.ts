/** The text of a PDF, page by page, as a reader's tool extracts it (pdf-parse, on pdf.js). */
import { PDFParse } from 'pdf-parse';

export interface PdfText {
  pages: string[];
  /** Every page joined. */
  text: string;
}

export async function pdfText(pdf: Buffer): Promise<PdfText> {
  const parser = new PDFParse({ data: pdf });
  try {
    const result = await parser.getText();
    const pages = result.pages.sort((a, b) => a.num - b.num).map((p) => p.text);
    return { pages, text: pages.join('\n') };
  } finally {
    await parser.destroy();
  }
}
