import { lazy, Suspense, type ComponentProps } from 'react';

// The note editor loads when a note is first written (its own chunk; the window's start budget).
const NoteEditor = lazy(() =>
  import('./CallNoteEditor').then((m) => ({ default: m.CallNoteEditor })),
);

/** CallNoteEditor, loaded when first opened. */
export function CallNoteEditor(props: ComponentProps<typeof NoteEditor>) {
  return (
    <Suspense fallback={null}>
      <NoteEditor {...props} />
    </Suspense>
  );
}
