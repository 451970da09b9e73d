import { useAppStore } from '../store/app-store';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { Name, PhoneNumber } from '../components/Isolated';

/** Version and platform details, away from the everyday view. */
export function AboutView() {
  const info = useAppStore((state) => state.info);
  const error = useAppStore((state) => state.infoError);
  const account = useAppStore((state) => state.account);
  const back = useAppStore((state) => state.show);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="panel" aria-labelledby="about-title">
      <h1 id="about-title" ref={heading} tabIndex={-1}>
        About Callbar
      </h1>
      <p>
        Click-to-dial for your business phone: Callbar asks the platform to ring your phone, then
        the number.
      </p>
      {error ? (
        <p role="alert" className="error">
          {error.message}
        </p>
      ) : info ? (
        <dl className="about" data-testid="app-info">
          <dt>Version</dt>
          <dd data-testid="app-version">{info.version}</dd>
          <dt>Platform</dt>
          <dd>{info.platform}</dd>
          <dt>Running in</dt>
          <dd data-testid="app-runtime">
            {info.runtime === 'electron' ? 'Electron' : 'Web preview'}
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
              <dt>Account</dt>
              <dd>
                Extension <PhoneNumber>{account.user_extension}</PhoneNumber> (
                <Name>{account.tenant_id}</Name>)
              </dd>
            </>
          ) : null}
          {account?.relay ? (
            <>
              <dt>Connection</dt>
              <dd>
                via relay <Name>{account.relay}</Name>
              </dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
      <button type="button" onClick={() => back('main')}>
        Back
      </button>
    </section>
  );
}
