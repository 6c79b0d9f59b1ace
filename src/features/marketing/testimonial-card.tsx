import type { Testimonial } from './landing-content.ts';

/** One quote on the landing page. */
export function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="flex h-full flex-col justify-between rounded-2xl border border-slate-200 bg-surface p-6 shadow-sm">
      <blockquote className="text-slate-800">
        <p>“{testimonial.quote}”</p>
      </blockquote>
      <figcaption className="mt-4 text-sm font-medium text-slate-600">— {testimonial.author}</figcaption>
    </figure>
  );
}
