import packageJson from '../../package.json';

/** The product name and version, as package.json records them. */
export const packageInfo = { name: 'Callbar', version: packageJson.version } as const;
