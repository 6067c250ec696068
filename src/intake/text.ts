import { badEncoding } from './errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The file as UTF-8 text, its byte order mark dropped; anything else is refused with `bad_encoding`. */
export function utf8Text(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw badEncoding('The file is UTF-16 text.');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw badEncoding(`The file is not valid UTF-8 (byte ${at} cannot be read; a spreadsheet's "CSV" in a Windows code page does this).`);
  }
}

/** Offset of the first byte that breaks UTF-8, for the message. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const n = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (i + k >= bytes.length || (bytes[i + k] & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return bytes.length;
}

/**
 * Whether a property's text can be stored and filed as it is: PostgreSQL text holds no NUL, and a lone
 * UTF-16 surrogate (a JSON `\ud800` escape) is no Unicode text, with no UTF-8 form.
 */
export const isStorableText = (text: string): boolean => text.isWellFormed() && !text.includes('\0');

/** The text with each NUL and lone surrogate shown as U+FFFD, so a message can name it. */
export const shownText = (text: string): string => text.toWellFormed().replaceAll('\0', '\ufffd');
