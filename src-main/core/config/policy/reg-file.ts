/**
 * A strict reader of exported registry files (`reg export`, regedit's "Export": "Windows Registry
 * Editor Version 5.00", UTF-16LE or UTF-8). It reads what an export contains: key headers, string,
 * dword, qword and `hex(…)` values, `\`-continued lines and `;` comments. A deletion (`[-KEY]`,
 * `"name"=-`) or anything else is refused with its line number: such a file is a change script, not
 * a snapshot, and guessing at it would apply policies nobody wrote.
 *
 * No npm package reads `.reg` files with the care this needs (the ones published are unmaintained
 * or lenient), hence this small one.
 */
import { CallbarError } from '../../errors';
import { registryPathKey, type RegistrySnapshot, type RegistryValue } from './registry-snapshot';

const HEADER = 'Windows Registry Editor Version 5.00';

/** The text of a `.reg` file's bytes: UTF-16LE with a BOM (what `reg export` writes) or UTF-8. */
export function decodeRegFile(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
}

/**
 * The keys and values of a `.reg` file's text.
 * @throws CallbarError `policy_invalid` naming `file` and the line.
 */
export function parseRegFile(text: string, file: string): RegistrySnapshot {
  const snapshot: RegistrySnapshot = new Map();
  const lines = joinContinuations(text.split(/\r?\n/));
  const fail = (line: number, problem: string): never => {
    throw new CallbarError('policy_invalid', `${file}, line ${line}: ${problem}.`);
  };
  if (lines[0]?.text.trim() !== HEADER) {
    fail(1, `a registry export starts with "${HEADER}"`);
  }
  let current: RegistryValue[] | undefined;
  for (const { text: raw, line } of lines.slice(1)) {
    const text = raw.trim();
    if (text === '' || text.startsWith(';')) continue;
    if (text.startsWith('[')) {
      const path = /^\[([^\]-][^\]]*)\]$/.exec(text)?.[1];
      if (path === undefined) fail(line, 'a key line is [HKEY_…\\Path] (deletions are refused)');
      const key = registryPathKey(path!);
      const existing = snapshot.get(key);
      current = existing?.values ?? [];
      if (!existing) snapshot.set(key, { path: path!, values: current });
      continue;
    }
    if (!current) fail(line, 'a value comes before any [key] line');
    const value = parseValueLine(text, (problem) => fail(line, problem));
    current!.push(value);
  }
  return snapshot;
}

/** Lines ending in `\` continue on the next (hex data); each joined line keeps its first number. */
function joinContinuations(lines: string[]): { text: string; line: number }[] {
  const joined: { text: string; line: number }[] = [];
  let pending: { text: string; line: number } | undefined;
  lines.forEach((text, index) => {
    if (pending) pending.text += text.trim();
    else pending = { text, line: index + 1 };
    if (pending.text.endsWith('\\') && /^(@|".*")=hex/.test(pending.text.trim())) {
      pending.text = pending.text.slice(0, -1);
      return;
    }
    joined.push(pending);
    pending = undefined;
  });
  if (pending) joined.push(pending);
  return joined;
}

function parseValueLine(text: string, fail: (problem: string) => never): RegistryValue {
  let name: string;
  let rest: string;
  if (text.startsWith('@=')) {
    name = '';
    rest = text.slice(2);
  } else {
    const quoted = readQuoted(text, 0) ?? fail('a value line is "name"=data');
    if (text[quoted.end] !== '=') fail('a value line is "name"=data');
    name = quoted.value;
    rest = text.slice(quoted.end + 1);
  }
  if (rest === '-') fail(`"${name}" is deleted (=-): a change script, not an export`);
  if (rest.startsWith('"')) {
    const quoted = readQuoted(rest, 0) ?? fail(`the text of "${name}" is not closed`);
    if (quoted.end !== rest.length) fail(`unexpected text after the value of "${name}"`);
    return { name, type: 'REG_SZ', data: quoted.value };
  }
  const dword = /^dword:([0-9a-fA-F]{1,8})$/.exec(rest);
  if (dword) return { name, type: 'REG_DWORD', data: parseInt(dword[1]!, 16) };
  const hex = /^hex(?:\(([0-9a-fA-F]+)\))?:([0-9a-fA-F]{2}(?:,[0-9a-fA-F]{2})*)?,?$/.exec(rest);
  if (!hex) fail(`the data of "${name}" is not a string, dword or hex value`);
  const bytes = Uint8Array.from((hex[2] ?? '').split(',').filter(Boolean), (b) => parseInt(b, 16));
  switch ((hex[1] ?? '3').toLowerCase()) {
    case '1':
      return { name, type: 'REG_SZ', data: utf16(bytes).replace(/\0+$/, '') };
    case '2':
      return { name, type: 'REG_EXPAND_SZ', data: utf16(bytes).replace(/\0+$/, '') };
    case '3':
      return { name, type: 'REG_BINARY', data: hex[2] ?? '' };
    case '4':
      if (bytes.length !== 4) fail(`the dword "${name}" is not 4 bytes`);
      return { name, type: 'REG_DWORD', data: new DataView(bytes.buffer).getUint32(0, true) };
    case '7':
      return { name, type: 'REG_MULTI_SZ', data: utf16(bytes).split('\0').filter(Boolean) };
    case 'b':
      if (bytes.length !== 8) fail(`the qword "${name}" is not 8 bytes`);
      return {
        name,
        type: 'REG_QWORD',
        data: Number(new DataView(bytes.buffer).getBigUint64(0, true)),
      };
    default:
      return fail(`"${name}" has a registry type Callbar does not read (hex(${hex[1]}))`);
  }
}

/** A `"…"` string starting at `start` (`\\` and `\"` escaped), and where it ends. */
function readQuoted(text: string, start: number): { value: string; end: number } | undefined {
  if (text[start] !== '"') return undefined;
  let value = '';
  for (let index = start + 1; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\') {
      const next = text[index + 1];
      if (next !== '\\' && next !== '"') return undefined;
      value += next;
      index++;
    } else if (char === '"') return { value, end: index + 1 };
    else value += char;
  }
  return undefined;
}

function utf16(bytes: Uint8Array): string {
  return new TextDecoder('utf-16le').decode(bytes);
}
