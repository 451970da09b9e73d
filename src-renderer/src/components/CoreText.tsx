import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n';

/**
 * A sentence core said (a form's or a dialog's error) in the window's language now. Core words
 * it in the language of the moment it answered; when the person changes the language while it is
 * shown, core says it again (`app.sayAgain`) from the words the window was given, so a German
 * error does not stay German in an English window. A sentence core did not say stays as it is.
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
    void window.callbar.app.sayAgain({ texts: [children] }).then((result) => {
      if (wanted && result.ok) setAgain({ text: children, language, said: result.value[0]! });
    });
    return () => {
      wanted = false;
    };
  }, [children, language, came]);
  return again?.text === children && again.language === language && language !== came.language
    ? again.said
    : children;
}
