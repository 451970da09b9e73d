/**
 * The tel:/callto: link a launch carries, read defensively from a command line.
 *
 * The OS starts Callbar as `callbar -- <link>` (the packaging and `setAsDefaultProtocolClient`
 * both put `--` first), so a crafted link can never be read as a Chromium or Electron switch (the
 * class of CVE-2018-1000006). Only the argument after the LAST `--` counts; anything else on the
 * command line is ignored, as are schemes other than tel:/callto: and links longer than the dial
 * channel accepts.
 */

/** The schemes Callbar registers for and accepts. */
export const LINK_SCHEMES = ['tel', 'callto'] as const;

/** As long as `calls.openUrl` accepts (its `url` is at most 512 characters). */
export const MAX_LINK_LENGTH = 512;

const LINK = /^(tel|callto):/i;

/** True when `value` is a tel: or callto: link of an acceptable length. */
export function isDialLink(value: string): boolean {
  // Control characters never belong in a link (a newline could forge a log line or a header).
  return value.length <= MAX_LINK_LENGTH && LINK.test(value) && !/\p{Cc}/u.test(value);
}

/**
 * The link in `argv` (a whole command line, `process.argv` or what `second-instance` hands over),
 * or undefined. Only the single argument after the last `--` is considered.
 */
export function linkFromArgv(argv: readonly string[]): string | undefined {
  const separator = argv.lastIndexOf('--');
  const candidate = separator === -1 ? undefined : argv[separator + 1]?.trim();
  return candidate !== undefined && isDialLink(candidate) ? candidate : undefined;
}

/** The link macOS hands over in `open-url` (no command line there), or undefined. */
export function linkFromOpenUrl(url: string): string | undefined {
  const candidate = url.trim();
  return isDialLink(candidate) ? candidate : undefined;
}
