/**
 * The export's directories as a Netscape Bookmark File (the HTML every browser imports): one
 * folder per directory, the user's own first, then the ones shared with the user as
 * 'Shared / <name>'. A link's notes (or, without notes, its description) become the `<DD>`.
 */
import { exportNetscapeBookmarks, type ExportFolder } from '../../domain/bookmarks/netscape-export.ts';
import type { ExportDirectory, WorkspaceExport } from './workspace-export-format.ts';

export const SHARED_FOLDER_PREFIX = 'Shared / ';

function folderOf(directory: ExportDirectory, name: string): ExportFolder {
  return {
    name,
    links: directory.links.map((link) => ({
      url: link.url,
      title: link.title,
      createdAt: link.created_at,
      tags: link.tags,
      description: link.notes || link.description,
    })),
  };
}

/** The bookmark file of every directory in the export. */
export function buildBookmarksHtml(exp: WorkspaceExport): string {
  return exportNetscapeBookmarks([
    ...exp.directories.map((dir) => folderOf(dir, dir.name)),
    ...exp.shared_directories.map((dir) => folderOf(dir, `${SHARED_FOLDER_PREFIX}${dir.name}`)),
  ]);
}
