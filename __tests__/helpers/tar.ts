/** Reading the `upload` archives the tests build or the simulator's storage received. */
import { gunzipSync } from 'node:zlib';

/** File names of a .tar.gz (plain ustar/pax: 512-byte headers). */
export function tarNames(gz: Buffer): string[] {
  const tar = gunzipSync(gz);
  const names: string[] = [];
  let pax: string | undefined;
  for (let off = 0; off + 512 <= tar.length;) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('utf8').trim() || '0', 8);
    const type = String.fromCharCode(header[156]!);
    const body = tar.subarray(off + 512, off + 512 + size);
    if (type === 'x') pax = /\d+ path=(.*)\n/.exec(body.toString('utf8'))?.[1];
    else {
      names.push(pax ?? (prefix ? `${prefix}/${name}` : name));
      pax = undefined;
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}
