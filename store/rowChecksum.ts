// The checksum a message row is written with: CRC-32 of the text columns the runtime reads back
// (role, kind, call_id, parts_json as stored). A match proves the row is byte for byte what this
// store wrote, after validating it as typed parts, so the read side may skip validating it again; a
// mismatch (a hand edit, another program) means full validation. It guards against edits, not
// against forgery: whoever can write the file can also write a matching checksum.

import * as zlib from 'node:zlib';

type Crc32 = (data: string, value?: number) => number;

/** zlib's (hardware-assisted) CRC-32 where Node has it (20.15+), else a table-driven one with equal values. */
// A namespace import: a named import of an export an older Node lacks would fail to link.
const crc32: Crc32 = typeof zlib.crc32 === 'function' ? zlib.crc32 : portableCrc32;

const SEPARATOR = '\u0000';

export function messageChecksum(role: string, kind: string | null, callId: string | null, partsJson: string): number {
  // null and '' are told apart so moving a value between columns or dropping one changes the sum.
  const head = `${role}${SEPARATOR}${kind === null ? '-' : `+${kind}`}${SEPARATOR}${callId === null ? '-' : `+${callId}`}${SEPARATOR}`;
  return crc32(partsJson, crc32(head));
}

let table: Int32Array | undefined;

/** CRC-32 (zlib's polynomial) of the UTF-8 bytes of `data`, continuing from `value`. */
export function portableCrc32(data: string, value = 0): number {
  table ??= makeTable();
  let crc = ~value;
  for (const byte of Buffer.from(data, 'utf8')) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

function makeTable(): Int32Array {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
}
