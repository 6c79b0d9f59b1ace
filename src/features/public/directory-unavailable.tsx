/** The visitor's access-denied state (docs/product.md, Links screen). */
export function DirectoryUnavailable() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">This directory is not available</h1>
      <p className="mt-2 text-slate-600">
        It may be private or you don't have access. Ask the owner to make it public or invite you.
      </p>
    </div>
  );
}
