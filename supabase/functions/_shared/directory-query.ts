/** ?dirId={id}, the query of public-directory and directory-voting-posts: one directory id (a uuid). */
import * as v from 'valibot';

const NOT_AN_ID = 'dirId must be a directory id (uuid)';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const directoryQuery = v.object(
  { dirId: v.pipe(v.string(NOT_AN_ID), v.trim(), v.regex(UUID, NOT_AN_ID)) },
  NOT_AN_ID,
);
