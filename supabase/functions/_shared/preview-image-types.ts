/**
 * The images a preview may use, by content type and by their first bytes (a page served as
 * `image/png` is no image): PNG, JPEG, GIF, WebP, AVIF and icons (ICO). SVG is refused: it is a
 * document that may carry script and load other resources, unsafe to show from the app's origin.
 */

type Signature = (bytes: Uint8Array) => boolean;

const startsWith =
  (...expected: number[]): Signature =>
  (bytes) =>
    expected.every((byte, at) => bytes[at] === byte);

const ascii = (bytes: Uint8Array, from: number, text: string) =>
  [...text].every((char, at) => bytes[from + at] === char.charCodeAt(0));

const SIGNATURES: Record<string, Signature> = {
  'image/png': startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
  'image/jpeg': startsWith(0xff, 0xd8, 0xff),
  'image/gif': (bytes) => ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a'),
  'image/webp': (bytes) => ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP'),
  'image/avif': (bytes) => ascii(bytes, 4, 'ftyp') && (ascii(bytes, 8, 'avif') || ascii(bytes, 8, 'avis')),
  'image/x-icon': startsWith(0x00, 0x00, 0x01, 0x00),
  'image/vnd.microsoft.icon': startsWith(0x00, 0x00, 0x01, 0x00),
};

/** The image types a preview takes. */
export const IMAGE_TYPES: readonly string[] = Object.keys(SIGNATURES);

/**
 * Whether `contentType` is an image type a preview takes and, when `bytes` are given, whether
 * they begin as that type does.
 */
export function looksLikeImage(contentType: string, bytes: Uint8Array | null): boolean {
  const signature = SIGNATURES[contentType];
  return signature !== undefined && (bytes === null || signature(bytes));
}
