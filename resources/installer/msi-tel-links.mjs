/**
 * electron-builder's `msiProjectCreated` hook (electron-builder.json): registers Callbar for tel:
 * and callto: links in the MSI, which electron-builder's MSI target does not do by itself (its
 * WiX template writes files, shortcuts and file associations, never URL protocols, and has no
 * include like NSIS's). The hook gets the generated `project.wxs` before WiX compiles it and adds
 * one component per scheme to the product's components: registry keys under HKMU (HKLM for the
 * per-machine install, `msi.perMachine`) `Software\Classes\<scheme>`, started as
 * `Callbar.exe -- "<link>"` like the NSIS installer (tel-links.nsh) and the app's own registration
 * (src-main/core/desktop/link-handler.ts): the link is never read as a switch. Windows Installer
 * removes the keys on uninstall.
 */
import { readFile, writeFile } from 'node:fs/promises';

/** The schemes and a fixed component GUID each (a component keeps its GUID across versions). */
export const MSI_LINK_SCHEMES = [
  { scheme: 'tel', guid: '1751055D-34BE-49D3-BB1D-B9F25B4A8718' },
  { scheme: 'callto', guid: '55A3E152-31B3-4169-95E3-0BB0A62DC2A7' },
];

/** The component registering one scheme; `[#mainExecutable]` is the installed Callbar.exe. */
function schemeComponent({ scheme, guid }) {
  return [
    `<Component Id="callbarLink_${scheme}" Guid="${guid}">`,
    `  <RegistryKey Root="HKMU" Key="Software\\Classes\\${scheme}">`,
    `    <RegistryValue Type="string" Value="URL:${scheme} link" KeyPath="yes"/>`,
    `    <RegistryValue Type="string" Name="URL Protocol" Value=""/>`,
    `    <RegistryKey Key="DefaultIcon">`,
    `      <RegistryValue Type="string" Value="[#mainExecutable],0"/>`,
    `    </RegistryKey>`,
    `    <RegistryKey Key="shell\\open\\command">`,
    `      <RegistryValue Type="string" Value="&quot;[#mainExecutable]&quot; -- &quot;%1&quot;"/>`,
    `    </RegistryKey>`,
    `  </RegistryKey>`,
    `</Component>`,
  ].join('\n');
}

/**
 * The WiX project with the scheme components added to `ProductComponents`. Throws when the
 * project is not the shape this hook knows (a changed electron-builder template), rather than
 * building an MSI that silently lacks the links.
 */
export function addLinkSchemes(wxs) {
  const group = /<ComponentGroup Id="ProductComponents"[^>]*>/.exec(wxs);
  const end = group ? wxs.indexOf('</ComponentGroup>', group.index) : -1;
  if (!group || end < 0 || !wxs.includes('Id="mainExecutable"')) {
    throw new Error(
      'msi-tel-links: the MSI project has no ProductComponents group with the main executable; ' +
        "electron-builder's template changed, so tel:/callto: would not be registered.",
    );
  }
  const components = MSI_LINK_SCHEMES.map(schemeComponent).join('\n');
  return `${wxs.slice(0, end)}${components}\n${wxs.slice(end)}`;
}

/** The hook electron-builder calls with the project file's path. */
export async function msiProjectCreated(projectFile) {
  await writeFile(projectFile, addLinkSchemes(await readFile(projectFile, 'utf8')));
}
