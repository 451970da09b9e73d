import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Configuration } from 'app-builder-lib';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { APP_ID, DESKTOP_FILE } from '../../../../src-main/core/desktop/app-identity';
import { LINK_SCHEMES } from '../../../../src-main/core/desktop/launch-link';

const root = join(import.meta.dirname, '../../../..');
type Platforms = 'linux' | 'mac' | 'win';
const config = JSON.parse(readFileSync(join(root, 'electron-builder.json'), 'utf8')) as Omit<
  Configuration,
  Platforms
> & { [P in Platforms]: NonNullable<Configuration[P]> };
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string;
  desktopName: string;
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const require = createRequire(import.meta.url);
/** electron-builder's own validation of a configuration (CommonJS, no types for this path). */
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration: (config: Configuration, logger: unknown) => Promise<void>;
};
const { DebugLogger } = require('builder-util') as {
  DebugLogger: new (enabled: boolean) => unknown;
};
const { PlatformPackager } = require('app-builder-lib') as {
  PlatformPackager: {
    prototype: {
      generateFuseConfig(fuses: NonNullable<Configuration['electronFuses']>): Promise<unknown[]>;
    };
  };
};
const { FuseV1Options } = require('@electron/fuses') as {
  FuseV1Options: Record<string, string | number>;
};
/** electron-builder's loader for a hook named in the configuration, and the EJS its MSI uses. */
const { resolveFunction } = require('app-builder-lib/out/util/resolve.js') as {
  resolveFunction: (
    type: string,
    executor: unknown,
    name: string,
    root: string,
  ) => Promise<(path: string) => Promise<void>>;
};
const ejs = require('ejs') as {
  compile: (template: string) => (data: Record<string, unknown>) => string;
};

/**
 * The MSI's WiX project as electron-builder's MSI target writes it (its own template, compiled
 * the way MsiTarget does) for a per-machine install of Callbar.exe.
 */
function msiProject(): string {
  const template = readFileSync(
    join(root, 'node_modules/app-builder-lib/templates/msi/template.xml'),
    'utf8',
  )
    .replace(/{{/g, '<%')
    .replace(/}}/g, '%>')
    .replace(/\${([^}]+)}/g, '<%=$1%>');
  return ejs.compile(template)({
    productName: 'Callbar',
    upgradeCode: 'D752FE43-5D44-44D5-9FC9-6DD1BF19D5CC',
    version: '0.1.0.0',
    manufacturer: 'Callbar',
    compressionLevel: 'high',
    iconPath: null,
    iconId: 'CallbarIcon.exe',
    isRunAfterFinish: false,
    isAssisted: true,
    isPerMachine: true,
    menuCategory: null,
    programFilesId: 'ProgramFiles64Folder',
    installationDirectoryWixName: 'Callbar',
    isCreateDesktopShortcut: false,
    isCreateStartMenuShortcut: true,
    dirs: '',
    files:
      '<Component>\n<File Name="Callbar.exe" Source="$(var.appDir)\\Callbar.exe" ReadOnly="yes" KeyPath="yes" Id="mainExecutable"/>\n</Component>',
  });
}

interface WixRegistryKey {
  Root?: string;
  Key: string;
  RegistryValue?: WixRegistryValue | WixRegistryValue[];
  RegistryKey?: WixRegistryKey | WixRegistryKey[];
}
interface WixRegistryValue {
  Name?: string;
  Value: string;
  KeyPath?: string;
}

describe('packaging configuration (electron-builder, checked without building)', () => {
  it('is valid for the installed electron-builder', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('sets every Electron fuse the hardening asks for', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });

  it('decides every fuse on the wire: what electron-builder flips, fuse by fuse', async () => {
    // electron-builder's own mapping of the configuration onto @electron/fuses' wire; a fuse a
    // newer Electron adds shows up here undecided until the configuration says what it wants.
    const wire = await PlatformPackager.prototype.generateFuseConfig.call(
      {},
      config.electronFuses!,
    );
    const fuses = Object.entries(FuseV1Options).filter(([, value]) => typeof value === 'number');
    expect(fuses.length).toBeGreaterThanOrEqual(8);
    const decided = Object.fromEntries(fuses.map(([name, index]) => [name, wire[index as never]]));
    expect(decided).toEqual({
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      LoadBrowserProcessSpecificV8Snapshot: false,
      GrantFileProtocolExtraPrivileges: false,
    });
  });

  it('names the app and builds AppImage + deb + rpm, dmg + pkg, and NSIS + MSI per machine', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe('Callbar');
    expect(config.linux.target).toEqual(['AppImage', 'deb', 'rpm']);
    expect(config.mac.target).toEqual(['dmg', 'pkg']);
    expect(config.win.target).toEqual(['nsis', 'msi']);
    // Installed by IT for every user of the computer (issue 30).
    expect(config.nsis?.perMachine).toBe(true);
    expect(config.msi?.perMachine).toBe(true);
    expect(config.pkg?.installLocation).toBe('/Applications');
    for (const platform of ['linux', 'mac', 'win'] as const) {
      const icon = join(root, config[platform].icon ?? 'missing');
      expect(readFileSync(icon).subarray(1, 4).toString()).toBe('PNG');
    }
  });

  it('declares tel: and callto:, and Linux starts Callbar with the link after --', () => {
    const protocols = [config.protocols ?? []].flat();
    const schemes = protocols.flatMap((protocol) => protocol.schemes);
    expect(schemes).toEqual([...LINK_SCHEMES]);
    // Exec=/opt/Callbar/callbar -- %u: one URL, never readable as a switch.
    expect(config.linux.executableArgs).toEqual(['--', '%u']);
    expect(`${config.linux.executableName}.desktop`).toBe(DESKTOP_FILE);
    expect(pkg.desktopName).toBe(DESKTOP_FILE);
  });

  it('the NSIS installer registers tel: and callto: for the machine, the link after --', () => {
    const include = readFileSync(join(root, config.nsis?.include ?? 'missing'), 'utf8');
    for (const scheme of LINK_SCHEMES) {
      expect(include).toContain(`!insertmacro CallbarRegisterScheme "${scheme}"`);
      expect(include).toContain(`!insertmacro CallbarUnregisterScheme "${scheme}"`);
    }
    expect(include).toContain(
      `WriteRegStr SHCTX "Software\\Classes\\\${SCHEME}\\shell\\open\\command" "" '"$INSTDIR\\\${APP_EXECUTABLE_FILENAME}" -- "%1"'`,
    );
  });

  it('the MSI registers tel: and callto: for the machine through its msiProjectCreated hook', async () => {
    // electron-builder's MSI template has no URL protocols and no include: the hook adds them to
    // the project electron-builder generated, before WiX compiles it.
    const hook = await resolveFunction(
      'module',
      config.msiProjectCreated,
      'msiProjectCreated',
      root,
    );
    const projectFile = join(mkdtempSync(join(tmpdir(), 'callbar-msi-')), 'project.wxs');
    writeFileSync(projectFile, msiProject());
    await hook(projectFile);
    const wix = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      readFileSync(projectFile, 'utf8'),
    ) as {
      Wix: {
        Product: {
          Property: { Id: string; Value: string }[];
          ComponentGroup: {
            Id: string;
            Component: { Id?: string; Guid?: string; RegistryKey?: WixRegistryKey }[];
          };
        };
      };
    };
    const product = wix.Wix.Product;
    // Per machine: HKMU is HKLM.
    expect(product.Property).toContainEqual(
      expect.objectContaining({ Id: 'ALLUSERS', Value: '1' }),
    );
    expect(product.ComponentGroup.Id).toBe('ProductComponents');
    const components = product.ComponentGroup.Component.filter((c) => c.RegistryKey);
    expect(components.map((c) => c.RegistryKey!.Key)).toEqual(
      LINK_SCHEMES.map((scheme) => `Software\\Classes\\${scheme}`),
    );
    for (const component of components) {
      const key = component.RegistryKey!;
      expect(component.Guid).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}$/);
      expect(key.Root).toBe('HKMU');
      const values = [key.RegistryValue ?? []].flat();
      expect(values).toContainEqual({ Name: 'URL Protocol', Type: 'string', Value: '' });
      expect(values.find((value) => value.KeyPath === 'yes')).toBeDefined();
      const command = [key.RegistryKey ?? []].flat().find((k) => k.Key === 'shell\\open\\command');
      expect(command?.RegistryValue).toEqual({
        Type: 'string',
        Value: '"[#mainExecutable]" -- "%1"',
      });
    }
    // Each GUID is fixed and its own (WiX component rules across versions).
    expect(new Set(components.map((c) => c.Guid)).size).toBe(components.length);
  });

  it('the MSI hook stops the build when the project is not the shape it knows', async () => {
    const hook = await resolveFunction(
      'module',
      config.msiProjectCreated,
      'msiProjectCreated',
      root,
    );
    const projectFile = join(mkdtempSync(join(tmpdir(), 'callbar-msi-')), 'project.wxs');
    writeFileSync(projectFile, '<Wix><Product/></Wix>');
    await expect(hook(projectFile)).rejects.toThrow(/tel:\/callto: would not be registered/);
  });

  it('ships the updater with the app (a dependency, not a devDependency)', () => {
    expect(pkg.dependencies['electron-updater']).toBeDefined();
  });

  it('ships only the built bundles, with keytar rebuilt for Electron and unpacked', () => {
    expect(config.files).toEqual([
      'out/main/**',
      'out/preload/**',
      'out/renderer/**',
      // The main bundle reads these at ../../resources (electron-vite's ?asset imports).
      'resources/icon.png',
      'resources/tray/**',
      'package.json',
    ]);
    expect(pkg.main).toMatch(/^out\/main\//);
    expect(pkg.dependencies.keytar).toBeDefined();
    expect(config.npmRebuild).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    // electron-builder's default deb dependencies include libsecret-1-0 (keytar's Secret
    // Service); a "depends" list here would replace them all.
    expect(config.deb?.depends).toBeUndefined();
  });

  it('every file the shell imports with ?asset is packaged', () => {
    const app = join(root, 'src-main/app');
    const assets = readdirSync(app).flatMap((name) =>
      [...readFileSync(join(app, name), 'utf8').matchAll(/'\.\.\/\.\.\/([^']+)\?asset'/g)].map(
        (match) => match[1]!,
      ),
    );
    expect(assets.length).toBeGreaterThan(6);
    const files = [config.files ?? []].flat().filter((file) => typeof file === 'string');
    for (const asset of assets) {
      expect(existsSync(join(root, asset)), asset).toBe(true);
      const covered = files.some(
        (pattern) =>
          pattern === asset || (pattern.endsWith('/**') && asset.startsWith(pattern.slice(0, -2))),
      );
      expect(covered, asset).toBe(true);
    }
  });

  it('npm run dist builds first; npm test never packages (packaging downloads Electron)', () => {
    expect(pkg.scripts.dist).toBe('electron-vite build && electron-builder');
    expect(pkg.scripts.test).not.toContain('electron-builder');
    expect(pkg.scripts.test).not.toContain('dist');
  });
});
