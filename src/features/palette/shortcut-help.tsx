/**
 * The `?` dialog (docs/product.md, Keyboard shortcuts): every shortcut, as a list of terms. Loaded with
 * its first use (palette-host.tsx).
 */
import * as Dialog from '@radix-ui/react-dialog';
import { SHORTCUT_LIST } from './shortcuts.ts';

export function ShortcutHelp({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-dialog bg-black/30" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-dialog w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-surface p-6 shadow-xl"
        >
          <Dialog.Title className="text-lg font-semibold text-slate-900">Keyboard shortcuts</Dialog.Title>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            {SHORTCUT_LIST.map(({ keys, label }) => (
              <div key={keys} className="contents">
                <dt>
                  <kbd className="rounded border border-slate-300 px-1.5 font-mono text-xs text-slate-800">{keys}</kbd>
                </dt>
                <dd className="text-slate-800">{label}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-4 text-xs text-slate-600">Single keys work when you are not typing in a field.</p>
          <Dialog.Close className="mt-4 rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50">
            Close
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
