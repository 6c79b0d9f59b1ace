/**
 * The Add/Edit Link form's fields and checks (docs/product.md, Links screen; Validation), as one valibot schema: the form
 * (react-hook-form's resolver) and the TypeScript types come from it, and its output is what is
 * saved (the URL normalised to http(s), the title and notes trimmed). Text the database cannot
 * store (a NUL character, a lone surrogate) is refused with a message, before anything is queued.
 */
import * as v from 'valibot';
import { normalizeUrl } from '../../domain/validation.ts';
import { isStorableText, unstorableTextMessage } from '../../domain/storable-text.ts';

/** A field whose text the database can store (no NUL character, no lone surrogate), refused in words. */
const storable = (label: string) => v.check(isStorableText, unstorableTextMessage(label));

export const linkFormSchema = v.object({
  url: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('URL is required.'),
    storable('URL'),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const url = normalizeUrl(dataset.value);
      if (url !== null) return url;
      addIssue({ message: 'Only http and https links can be saved.' });
      return NEVER;
    }),
  ),
  title: v.pipe(v.string(), v.trim(), v.nonEmpty('Title is required.'), storable('Title')),
  notes: v.pipe(
    v.string(),
    v.trim(),
    storable('Notes'),
    v.transform((notes) => notes || null),
  ),
});

/** What the fields hold while editing. */
export type LinkFormInput = v.InferInput<typeof linkFormSchema>;
/** What a valid form saves. */
export type LinkFormValues = v.InferOutput<typeof linkFormSchema>;
