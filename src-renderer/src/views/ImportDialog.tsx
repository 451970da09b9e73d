import { useEffect, useState } from 'react';
import type {
  ImportEncoding,
  ImportField,
  ImportPreview,
  ImportsChangedEvent,
} from '../../../src-shared/contract';
import { useTranslation } from '../i18n';
import { DialogActions } from '../components/DialogActions';
import { Icon } from '../components/Icon';
import { PhoneNumber } from '../components/Isolated';
import { Modal } from '../components/Modal';
import { CoreAlert, CoreText } from '../components/CoreText';
import { NUMBER_LIKE } from './written-numbers';

/** The largest file the dialog reads (core refuses more as well). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Characters a request carries: the contract's IMPORT_UPLOAD_CHARS (the renderer imports types only). */
const IMPORT_UPLOAD_CHARS = 128 * 1024;
/** Bytes a request carries: IMPORT_UPLOAD_CHARS of base64. */
const UPLOAD_BYTES = (IMPORT_UPLOAD_CHARS / 4) * 3;
/** The catalog's name of each encoding a file is read in, in the order the choice offers them. */
const ENCODING_NAMES = {
  'utf-8': 'import.encoding.utf8',
  'utf-16le': 'import.encoding.utf16le',
  'utf-16be': 'import.encoding.utf16be',
  'windows-1252': 'import.encoding.windows1252',
  'windows-1250': 'import.encoding.windows1250',
  'windows-1251': 'import.encoding.windows1251',
  macintosh: 'import.encoding.macintosh',
} as const satisfies Record<ImportEncoding, string>;
const ENCODINGS = Object.keys(ENCODING_NAMES) as ImportEncoding[];

/**
 * A number cell of the preview as the file has it: one that reads as a phone number on one line
 * (beside a long reason, "(202) 555-" and "0531" were on two), anything else (a column of notes
 * chosen as the number) wrapping inside its cell.
 */
function FileNumber({ text, className }: { text: string; className?: string }) {
  return NUMBER_LIKE.test(text.trim()) ? (
    <PhoneNumber className={className}>{text}</PhoneNumber>
  ) : (
    <span className={className}>{text}</span>
  );
}

/** Bytes as base64 (in slices: String.fromCharCode takes a bounded number of arguments). */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

/** Rows of the preview shown (the counts cover them all). */
const SHOWN_ROWS = 50;

/** The fields a column can fill (their words: the catalog's `import.field.<field>`). */
const FIELDS: ImportField[] = [
  'display_name',
  'number',
  'secondary_number',
  'speed_dial',
  'company',
];

type Progress = NonNullable<ImportsChangedEvent['progress']>;
type Summary = NonNullable<ImportsChangedEvent['result']>;

/**
 * Import a CSV or vCard file into a phonebook: drop it on the dialog or choose it, see how its
 * columns map and what would happen to each row, coloured by outcome (nothing is sent yet),
 * import with progress and Cancel, then the result, with the rows not imported to save as a
 * CSV. The dialog's body scrolls; its buttons stay in view at its foot.
 */
export function ImportDialog({ phonebook, onClose }: { phonebook: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [fileName, setFileName] = useState<string>();
  const [importId, setImportId] = useState<string>();
  const [preview, setPreview] = useState<ImportPreview>();
  /** The encoding the person chose (undefined: as Callbar found it, which `found` names). */
  const [encoding, setEncoding] = useState<ImportEncoding>();
  const [found, setFound] = useState<ImportEncoding>();
  const [onDuplicate, setOnDuplicate] = useState<'skip' | 'update'>('skip');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [progress, setProgress] = useState<Progress>();
  const [summary, setSummary] = useState<Summary>();
  const [dragging, setDragging] = useState(false);
  const running = progress !== undefined && summary === undefined;

  useEffect(
    () =>
      window.callbar.onEvent((event) => {
        if (event.type !== 'imports.changed' || event.import_id !== preview?.import_id) return;
        if (event.progress) setProgress(event.progress);
        if (event.result) setSummary(event.result);
      }),
    [preview?.import_id],
  );

  const check = async (
    id: string,
    mapping?: Partial<Record<ImportField, number | null>>,
    duplicates = onDuplicate,
    chosen = encoding,
  ) => {
    setBusy(true);
    const answer = await window.callbar.imports.preview({
      import_id: id,
      phonebook,
      on_duplicate: duplicates,
      ...(mapping ? { mapping } : {}),
      ...(chosen ? { encoding: chosen } : {}),
    });
    setBusy(false);
    if (answer.ok) {
      setPreview(answer.value);
      if (!answer.value.encoding_chosen) setFound(answer.value.encoding);
      setError(undefined);
    } else {
      // Nothing to import until the file reads: the rows of another reading are not shown.
      setPreview(undefined);
      setError(answer.error.message);
    }
  };

  const choose = (value: string) => {
    if (!importId) return;
    const chosen = ENCODINGS.find((known) => known === value);
    setEncoding(chosen);
    void check(importId, preview?.mapping, onDuplicate, chosen);
  };

  /** A file dropped or chosen; none is taken while another is read. */
  const pick = async (file: File | undefined) => {
    if (!file || busy) return;
    setPreview(undefined);
    setImportId(undefined);
    setEncoding(undefined);
    setFound(undefined);
    setFileName(file.name);
    if (file.size > MAX_FILE_BYTES) {
      setError(t('import.tooLarge', { megabytes: MAX_FILE_BYTES / 1024 / 1024 }));
      return;
    }
    setBusy(true);
    // Its bytes as they are: core reads the encoding (UTF-8, UTF-16, Windows-1252) and says it.
    const bytes = new Uint8Array(await file.arrayBuffer());
    let id: string | undefined;
    for (let at = 0; at === 0 || at < bytes.length; at += UPLOAD_BYTES) {
      const answer = await window.callbar.imports.upload({
        ...(id ? { import_id: id } : {}),
        file_name: file.name,
        base64: base64Of(bytes.subarray(at, at + UPLOAD_BYTES)),
      });
      if (!answer.ok) {
        setBusy(false);
        setError(answer.error.message);
        return;
      }
      id = answer.value.import_id;
    }
    setImportId(id);
    await check(id!, undefined, onDuplicate, undefined);
  };

  const remap = (field: ImportField, column: string) => {
    if (!preview) return;
    const mapping: Partial<Record<ImportField, number | null>> = { ...preview.mapping };
    mapping[field] = column === '' ? null : Number(column);
    void check(preview.import_id, mapping);
  };

  const start = async () => {
    if (!preview) return;
    setProgress({
      ...preview.counts,
      created: 0,
      updated: 0,
      skipped: 0,
      failed: 0,
      not_sent: 0,
      done: 0,
      total: 0,
    });
    const answer = await window.callbar.imports.start({ import_id: preview.import_id });
    if (!answer.ok) {
      setProgress(undefined);
      setError(answer.error.message);
    }
  };

  const failuresLink = summary?.failures_csv
    ? URL.createObjectURL(new Blob([summary.failures_csv], { type: 'text/csv' }))
    : undefined;

  return (
    <Modal titleId="import-title" onCancel={running ? () => undefined : onClose}>
      <h2 id="import-title">{t('import.title')}</h2>
      {!progress ? (
        <label
          className="drop-zone"
          data-dragging={dragging}
          data-testid="drop-zone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            void pick(event.dataTransfer.files[0]);
          }}
        >
          <Icon name="upload" />
          <span className="drop-zone-words">
            <strong>{fileName ?? t('import.drop')}</strong>
            <span className="hint small">{t('import.dropHint')}</span>
          </span>
          {/*
           * The system's file control is not shown: it named its button in the system's language
           * ("Choose File" in a German window) and the file a second time. Its button is ours.
           */}
          {/*
           * While a file is read it takes no other (aria-disabled, its chooser not opened) but
           * keeps the focus: `disabled` dropped the focus to the page the moment a file was
           * chosen, and a keyboard user's next key went nowhere.
           */}
          <input
            type="file"
            className="drop-zone-input"
            aria-label={t('import.file')}
            accept=".csv,.vcf,.vcard,text/csv,text/vcard"
            data-autofocus
            aria-disabled={busy || undefined}
            onClick={(event) => {
              if (busy) event.preventDefault();
            }}
            onChange={(event) => void pick(event.target.files?.[0])}
          />
          <span className="drop-zone-button" aria-hidden="true">
            {t('import.choose')}
          </span>
        </label>
      ) : null}
      <CoreAlert text={error} />
      {busy ? <p role="status">{t('import.checking', { file: fileName })}</p> : null}
      {importId && !progress ? (
        <div className="import-columns import-encoding">
          <label>
            {t('import.encodingLabel')}
            <select
              value={encoding ?? ''}
              disabled={busy}
              onChange={(event) => choose(event.target.value)}
            >
              <option value="">
                {found
                  ? t('import.encodingFound', { encoding: t(ENCODING_NAMES[found]) })
                  : t('import.encodingAuto')}
              </option>
              {ENCODINGS.map((known) => (
                <option key={known} value={known}>
                  {t(ENCODING_NAMES[known])}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}
      {preview && !progress ? (
        <>
          <p className="hint small" data-testid="import-read">
            {t('import.readAs', {
              format: preview.format === 'vcard' ? 'vCard' : 'CSV',
              encoding: t(ENCODING_NAMES[preview.encoding]),
            })}
            {preview.encoding === 'windows-1252' && !preview.encoding_chosen
              ? ` ${t('import.westernHint')}`
              : ''}
          </p>
          <fieldset className="import-columns">
            <legend>{t('import.columns')}</legend>
            {FIELDS.map((field) => (
              <label key={field}>
                {t(`import.field.${field}`)}
                <select
                  aria-label={t('import.columnFor', { field: t(`import.field.${field}`) })}
                  value={preview.mapping[field] ?? ''}
                  onChange={(event) => remap(field, event.target.value)}
                >
                  <option value="">{t('import.noColumn')}</option>
                  {preview.headers.map((header, index) => (
                    <option key={index} value={index}>
                      {header || t('import.columnNumber', { number: index + 1 })}
                    </option>
                  ))}
                </select>
              </label>
            ))}
            <label>
              {t('import.duplicate')}
              <select
                value={onDuplicate}
                onChange={(event) => {
                  const value = event.target.value === 'update' ? 'update' : 'skip';
                  setOnDuplicate(value);
                  void check(preview.import_id, preview.mapping, value);
                }}
              >
                <option value="skip">{t('import.skipIt')}</option>
                <option value="update">{t('import.updateIt')}</option>
              </select>
            </label>
          </fieldset>
          <p role="status" className="import-plan" data-testid="import-plan">
            {(['created', 'updated', 'skipped', 'failed'] as const).map((outcome) => (
              <span key={outcome} className="outcome" data-outcome={outcome}>
                {t(`import.planned.${outcome}`, { count: preview.counts[outcome] })}
              </span>
            ))}
          </p>
          <table className="import-rows">
            <thead>
              <tr>
                <th scope="col">{t('import.row')}</th>
                <th scope="col">{t('common.name')}</th>
                <th scope="col">{t('common.number')}</th>
                <th scope="col">{t('import.whatHappens')}</th>
              </tr>
            </thead>
            <tbody>
              {preview.rows.slice(0, SHOWN_ROWS).map((row) => (
                <tr key={row.row}>
                  <td>{row.row}</td>
                  <td dir="auto">{row.cells.display_name}</td>
                  <td dir="ltr">
                    <FileNumber text={row.cells.number} />
                    {row.cells.secondary_number ? (
                      <FileNumber
                        text={row.cells.secondary_number}
                        className="import-secondary hint small"
                      />
                    ) : null}
                  </td>
                  <td>
                    <span className="outcome" data-outcome={row.outcome}>
                      {t('import.outcome', { outcome: row.outcome })}
                    </span>
                    {row.reason ? (
                      <span className="outcome-reason">
                        {' '}
                        <CoreText>{row.reason}</CoreText>
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {progress && !summary ? (
        <div className="import-progress">
          <progress
            aria-label={t('import.progressLabel')}
            max={Math.max(1, progress.total)}
            value={progress.done}
          />
          <p role="status" data-testid="import-progress">
            {t('import.progress', progress)}
            {progress.waiting_ms !== undefined
              ? t('import.waiting', { seconds: Math.ceil(progress.waiting_ms / 1000) })
              : ''}
          </p>
        </div>
      ) : null}
      {summary ? (
        <p
          role="status"
          className="import-result"
          data-outcome={summary.counts.failed > 0 || summary.stopped ? 'failed' : 'created'}
          data-testid="import-result"
        >
          {t('import.result', {
            ...summary.counts,
            how: summary.cancelled
              ? 'cancelled'
              : summary.stopped
                ? 'stopped'
                : summary.counts.failed > 0
                  ? 'incomplete'
                  : 'done',
          })}
          {summary.stopped ? (
            <>
              {' '}
              <CoreText>{summary.stopped}</CoreText>
            </>
          ) : null}
        </p>
      ) : null}
      <DialogActions
        aside={
          failuresLink ? (
            <a className="button" href={failuresLink} download="callbar-import-failures.csv">
              {t('import.saveFailures')}
            </a>
          ) : null
        }
        cancel={
          running ? (
            <button
              type="button"
              onClick={() => void window.callbar.imports.cancel({ import_id: preview!.import_id })}
            >
              {t('import.cancel')}
            </button>
          ) : (
            <button type="button" onClick={onClose}>
              {summary ? t('common.close') : t('common.cancel')}
            </button>
          )
        }
        main={
          preview && !progress ? (
            <button type="button" className="primary" disabled={busy} onClick={() => void start()}>
              {t('import.import')}
            </button>
          ) : null
        }
      />
    </Modal>
  );
}
