import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { Message } from '../components/Message';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { Name, PhoneNumber } from '../components/Isolated';
import { ScreenHeader } from '../components/ScreenHeader';
import { useHomeName } from '../hooks/use-home-name';
import { CoreText } from '../components/CoreText';

/** Version and platform details, away from the everyday view. */
export function AboutView() {
  const { t } = useTranslation();
  const info = useAppStore((state) => state.info);
  const error = useAppStore((state) => state.infoError);
  const account = useAppStore((state) => state.account);
  const back = useAppStore((state) => state.show);
  const home = useHomeName();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="screen" aria-labelledby="about-title">
      <ScreenHeader
        titleId="about-title"
        title={t('about.title')}
        headingRef={heading}
        back={{ to: home, onClick: () => back('main') }}
      />
      <p className="lead">{t('about.summary')}</p>
      {error ? (
        <p role="alert" className="error">
          <CoreText>{error.message}</CoreText>
        </p>
      ) : info ? (
        <dl className="about" data-testid="app-info">
          <dt>{t('about.version')}</dt>
          <dd data-testid="app-version">{info.version}</dd>
          <dt>{t('about.platform')}</dt>
          <dd>{info.platform}</dd>
          <dt>{t('about.runningIn')}</dt>
          <dd data-testid="app-runtime">
            {info.runtime === 'electron' ? 'Electron' : t('about.webPreview')}
          </dd>
          <dt>Node</dt>
          <dd>{info.versions.node}</dd>
          {info.versions.electron ? (
            <>
              <dt>Electron</dt>
              <dd>{info.versions.electron}</dd>
            </>
          ) : null}
          {account?.tenant_id ? (
            <>
              <dt>{t('about.account')}</dt>
              <dd>
                <Message
                  id="about.extension"
                  values={{
                    extension: <PhoneNumber>{account.user_extension}</PhoneNumber>,
                    tenant: <Name>{account.tenant_id}</Name>,
                  }}
                />
              </dd>
            </>
          ) : null}
          {account?.relay ? (
            <>
              <dt>{t('about.connection')}</dt>
              <dd>
                <Message id="about.viaRelay" values={{ relay: <Name>{account.relay}</Name> }} />
              </dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p aria-busy="true">{t('common.loading')}</p>
      )}
    </section>
  );
}
