/**
 * The Add/Edit Link form's fields and checks (spec 2.6, 5), as one valibot schema: the form
 * (react-hook-form's resolver) and the TypeScript types come from it, and its output is what is
 * saved (the URL normalised to http(s), the title and notes trimmed).
 */
import * as v from 'valibot';
import { normalizeUrl } from '../../domain/validation.ts';

export const linkFormSchema = v.object({
  url: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('URL is required.'),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const url = normalizeUrl(dataset.value);
      if (url !== null) return url;
      addIssue({ message: 'Only http and https links can be saved.' });
      return NEVER;
    }),
  ),
  title: v.pipe(v.string(), v.trim(), v.nonEmpty('Title is required.')),
  notes: v.pipe(
    v.string(),
    v.trim(),
    v.transform((notes) => notes || null),
  ),
});

/** What the fields hold while editing. */
export type LinkFormInput = v.InferInput<typeof linkFormSchema>;
/** What a valid form saves. */
export type LinkFormValues = v.InferOutput<typeof linkFormSchema>;
