const gradients: Record<string, string> = {
  blue: 'from-blue-500 to-blue-600',
  purple: 'from-purple-500 to-purple-600',
  green: 'from-green-500 to-green-600',
  orange: 'from-orange-500 to-orange-600',
  pink: 'from-pink-500 to-pink-600',
  indigo: 'from-indigo-500 to-indigo-600',
};

/** The Tailwind gradient classes of a directory colour; an unknown colour falls back to blue (docs/product.md, Records). */
export function gradientOf(color: string | null | undefined): string {
  return gradients[color ?? ''] ?? 'from-blue-500 to-blue-600';
}
