/**
 * The felt benchmark's baseline page: a plain `<input>` and `Array.filter` over the same contacts
 * (fetched once from `contacts.json`), rendered by Callbar's own ResultList with the same
 * styles, so the keystroke → paint figure shows what the index and the IPC round trip cost or
 * save next to the simplest thing that could work.
 *
 * With `?channel=ws://…` it is the channel baseline: the same filter runs in a process of its own
 * (filter-server.ts) and each keystroke asks it over one WebSocket, as Callbar's window asks its
 * core; the latest answer is shown. The same page with a process hop and nothing else: what the
 * hop alone costs a keystroke, measured in the same run.
 */
import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { DirectoryContact, SearchHit } from '../../../src-shared/contract';
import { resultRows } from '../../../src-renderer/src/store/selectors';
import { ResultList } from '../../../src-renderer/src/views/ResultList';
import { plainFilter } from './filter';
import '../../../src-renderer/src/styles.css';

/** What a list shows: the hits for a text. */
interface Answer {
  query: string;
  hits: SearchHit[];
}

/** The filter's process over one WebSocket: the latest text's answer is told, older ones dropped. */
interface FilterChannel {
  ask(query: string): void;
  onAnswer: (answer: Answer) => void;
}

async function openChannel(url: string): Promise<FilterChannel> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let latest = 0;
  const channel: FilterChannel = {
    ask(query) {
      latest += 1;
      ws.send(JSON.stringify({ id: latest, query }));
    },
    onAnswer: () => undefined,
  };
  ws.onmessage = (event) => {
    const { id, ...answer } = JSON.parse(event.data as string) as Answer & { id: number };
    if (id === latest) channel.onAnswer(answer);
  };
  return channel;
}

const channelUrl = new URLSearchParams(location.search).get('channel');
const channel = channelUrl ? await openChannel(channelUrl) : undefined;
const local = channel
  ? undefined
  : plainFilter((await (await fetch('contacts.json')).json()) as DirectoryContact[]);

function Baseline() {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  // The channel baseline's list follows the latest answer, as Callbar's follows `answered`.
  const [answered, setAnswered] = useState<Answer>({ query: '', hits: [] });
  useEffect(() => {
    if (channel) channel.onAnswer = setAnswered;
  }, []);
  const shown = useMemo(
    () => (local ? { query: query.trim(), hits: local.filter(query) } : answered),
    [query, answered],
  );
  const rows = useMemo(
    () => resultRows({ hits: shown.hits, dialRow: undefined, dialAt: 0 }),
    [shown],
  );
  return (
    <section className="search">
      <input
        className="search-box"
        aria-label="Search contacts"
        value={query}
        autoFocus
        onChange={(event) => {
          channel?.ask(event.target.value.trim());
          setQuery(event.target.value);
          setSelected(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            channel?.ask('');
            setQuery('');
          }
        }}
      />
      {shown.query === '' ? null : rows.length > 0 ? (
        <ResultList
          query={shown.query}
          rows={rows}
          selected={selected}
          onSelect={setSelected}
          onDial={() => undefined}
        />
      ) : (
        <p className="empty">No contact matches “{shown.query}”.</p>
      )}
    </section>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Baseline />
  </StrictMode>,
);
