import { useCallback, useEffect, useState } from 'react';
import type { CrmLinkOffer, CrmParty } from '../../../src-shared/contract';

/**
 * The CRM links the settings offer (asked once per screen that shows them), and `open`, which
 * has core build the address for a party and open it in the system browser; a refusal comes back
 * as its sentence in `error`.
 */
export function useCrmLinks() {
  const [links, setLinks] = useState<CrmLinkOffer[]>([]);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void window.callbar.crm.links().then((result) => {
      if (live && result.ok) setLinks(result.value);
    });
    return () => {
      live = false;
    };
  }, []);
  const open = useCallback(async (link: number, party: CrmParty) => {
    const result = await window.callbar.crm.open({ link, party });
    setError(result.ok ? undefined : result.error.message);
  }, []);
  return { links, error, open };
}

/** Characters of a name or company sent (the channel's bound; core uses 200 of them). */
const MAX_PARTY_TEXT = 1000;

/** A party for a CRM link from a call's party or a contact's fields (empty ones left out). */
export function crmParty(number: string, name?: string | null, company?: string | null): CrmParty {
  return {
    number: number.slice(0, 64),
    ...(name ? { name: name.slice(0, MAX_PARTY_TEXT) } : {}),
    ...(company ? { company: company.slice(0, MAX_PARTY_TEXT) } : {}),
  };
}
