/** The environment of a Callbar process (CLI, preview) that talks to `sim`. */
export function profileEnv(
  sim: { base_url: string; portal_url: string; client_id: string; client_secret: string },
  dataDir: string,
  receiverPort: number,
): NodeJS.ProcessEnv {
  return {
    // The system region (numbers without a country code) names no country whatever the
    // machine's locale: US until the person chooses (core/numbers/system-region.ts).
    LC_TELEPHONE: 'C.UTF-8',
    CALLBAR_DATA_DIR: dataDir,
    CALLBAR_BASE_URL: sim.base_url,
    CALLBAR_PORTAL_URL: sim.portal_url,
    CALLBAR_CLIENT_ID: sim.client_id,
    CALLBAR_CLIENT_SECRET: sim.client_secret,
    CALLBAR_RECEIVER_PORT: String(receiverPort),
  };
}
