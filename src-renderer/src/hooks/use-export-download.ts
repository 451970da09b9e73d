import { useCallback, useState } from 'react';
import type { ExportRequest } from '../../../src-shared/contract';

/**
 * Saves an export as a file: core hands it over piece by piece (`exports.start`, then
 * `exports.read` until done), the pieces become one Blob, and the window's download saves it (a
 * save dialog in the desktop shell, the browser's download in the web preview), as the import
 * dialog saves its failures CSV. `busy` says how many items so far; a failure is its sentence.
 */
export function useExportDownload() {
  const [busy, setBusy] = useState<{ items: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const save = useCallback(async (request: ExportRequest) => {
    setError(undefined);
    setBusy({ items: 0 });
    try {
      const started = await window.callbar.exports.start(request);
      if (!started.ok) return setError(started.error.message);
      const pieces: string[] = [];
      for (;;) {
        const piece = await window.callbar.exports.read({ export_id: started.value.export_id });
        if (!piece.ok) return setError(piece.error.message);
        pieces.push(piece.value.text);
        setBusy({ items: piece.value.items });
        if (piece.value.done) break;
      }
      const type = started.value.file_name.endsWith('.vcf')
        ? 'text/vcard;charset=utf-8'
        : 'text/csv;charset=utf-8';
      const url = URL.createObjectURL(new Blob(pieces, { type }));
      const link = document.createElement('a');
      link.href = url;
      link.download = started.value.file_name;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has the Blob once it starts; the address is let go a little later.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } finally {
      setBusy(undefined);
    }
  }, []);
  return { busy, error, save };
}
