/** Five decorative stars beside the review score; the score itself is in the text. */
export function RatingStars() {
  return (
    <span aria-hidden="true" className="flex gap-0.5 text-amber-500">
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
          <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
        </svg>
      ))}
    </span>
  );
}
