import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n';
import { numbersIn } from '../views/written-numbers';
import { PhoneNumber } from './Isolated';

/** What one `app.sayAgain` carries (the channel's bounds). */
const TEXTS_PER_ASK = 20;
const TEXT_CHARS = 2000;

/** The sentences asked for in this turn: one request for all (an import's 50 row reasons). */
let asking: { text: string; answer: (said: string) => void }[] | undefined;

/** `text` in the window's language now, asked with every other sentence asked in this turn. */
function sayAgain(text: string): Promise<string> {
  // Longer than core says (a platform's own words): it stays as it is.
  if (text.length > TEXT_CHARS) return Promise.resolve(text);
  return new Promise((answer) => {
    if (!asking) {
      asking = [];
      queueMicrotask(askAll);
    }
    asking.push({ text, answer });
  });
}

function askAll(): void {
  const all = asking ?? [];
  asking = undefined;
  for (let at = 0; at < all.length; at += TEXTS_PER_ASK) {
    const some = all.slice(at, at + TEXTS_PER_ASK);
    void window.callbar.app.sayAgain({ texts: some.map(({ text }) => text) }).then((result) => {
      some.forEach(({ text, answer }, index) => answer(result.ok ? result.value[index]! : text));
    });
  }
}

/**
 * A sentence core said (an error, a reason, a notice) in the window's language now. Core words
 * it in the language of the moment it answered; when the person changes the language while it is
 * shown, core says it again (`app.sayAgain`) from the words the window was given, so a German
 * sentence does not stay German in an English window. A sentence core did not say stays as it
 * is. Every core sentence the window keeps shows through this, except those it asks core for
 * again when the language changes (the account's, the directory's, the calls': app-store.ts).
 * A phone number in it is a PhoneNumber, on one line: core words "+49 30 7654322" with spaces
 * (its text reaches the CLI and --json too), and at 420 px the line broke inside it.
 */
export function CoreText({ children }: { children: string }) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  // The language the sentence came in (a new sentence comes in the language of now).
  const [came, setCame] = useState({ text: children, language });
  if (came.text !== children) setCame({ text: children, language });
  const [again, setAgain] = useState<{ text: string; language: string; said: string }>();
  useEffect(() => {
    if (came.text !== children || language === came.language) return;
    let wanted = true;
    void sayAgain(children).then((said) => {
      if (wanted) setAgain({ text: children, language, said });
    });
    return () => {
      wanted = false;
    };
  }, [children, language, came]);
  const said =
    again?.text === children && again.language === language && language !== came.language
      ? again.said
      : children;
  return numbersIn(said).map(({ text, number }, at) =>
    number ? <PhoneNumber key={at}>{text}</PhoneNumber> : text,
  );
}

/**
 * A sentence core said that went wrong, as an alert (role="alert", the error style) in the
 * window's language now (CoreText); nothing while there is none.
 */
export function CoreAlert({ text, testId }: { text: string | undefined; testId?: string }) {
  return text ? (
    <p role="alert" className="error" data-testid={testId}>
      <CoreText>{text}</CoreText>
    </p>
  ) : null;
}
