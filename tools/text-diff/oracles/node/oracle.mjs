// Oracle: Node's libmime, postal-mime (with @sinonjs/text-encoding as its TextDecoder), utf7.
//
// Reads JSON lines {"id", "kind", "in" (latin-1 string of the input bytes), "label", "text"}
// on stdin, writes JSON lines {"id", "<oracle>": {"value"|"params"|"error"}}.
// Node's built-in TextDecoder reads windows-1252 as ISO-8859-1, so postal-mime is given the
// Encoding Standard implementation of @sinonjs/text-encoding instead (installed before the
// postal-mime modules are loaded).
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const textEncoding = require('@sinonjs/text-encoding');
globalThis.TextDecoder = textEncoding.TextDecoder;
const utf7 = require('utf7');
const libmime = (await import('libmime')).default;
const postal = await import('./node_modules/postal-mime/dist/esm/decode-strings.js');
const MimeNode = (await import('./node_modules/postal-mime/dist/esm/mime-node.js')).default;

function asInput(latin1) {
    // the bytes as a JS string: UTF-8 when valid, else one character per byte
    const buf = Buffer.from(latin1, 'latin1');
    try {
        return new textEncoding.TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch (e) {
        return latin1;
    }
}

function guard(fn) {
    try {
        return fn();
    } catch (e) {
        return { error: String(e && e.message ? e.message : e).slice(0, 200) };
    }
}

function lowerParams(params) {
    const out = {};
    for (const [k, v] of Object.entries(params || {})) {
        const key = k.toLowerCase();
        if (!(key in out)) out[key] = String(v);
    }
    return out;
}

const parser = Object.create(MimeNode.prototype);
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
const out = [];
for await (const line of rl) {
    if (!line) continue;
    const c = JSON.parse(line);
    const r = { id: c.id };
    if (c.kind === 'header') {
        const s = asInput(c.in).replace(/\r?\n(?=[ \t])|\r(?=[ \t])/g, '');
        r.libmime = guard(() => ({ value: libmime.decodeWords(s) }));
        r.postal = guard(() => ({ value: postal.decodeWords(s) }));
    } else if (c.kind === 'param') {
        const s = asInput(c.in).replace(/\r?\n(?=[ \t])|\r(?=[ \t])/g, '');
        r.libmime = guard(() => ({ params: lowerParams(libmime.parseHeaderValue(s).params) }));
        r.postal = guard(() => {
            const parsed = parser.parseStructuredHeader(s);
            const params = {};
            for (const [k, v] of Object.entries(parsed.params)) params[k] = postal.decodeWords(v);
            return { params: lowerParams(params) };
        });
    } else if (c.kind === 'charset') {
        const buf = Buffer.from(c.in, 'latin1');
        if (c.label === 'utf-7') {
            r.utf7 = guard(() => ({ value: utf7.decode(c.in) }));
        } else {
            r.sinon = guard(() => ({ value: new textEncoding.TextDecoder(c.label).decode(buf) }));
        }
    } else if (c.kind === 'imap') {
        r.utf7 = guard(() => ({ value: utf7.imap.decode(c.in) }));
    }
    out.push(JSON.stringify(r));
    if (out.length >= 1000) {
        process.stdout.write(out.join('\n') + '\n');
        out.length = 0;
    }
}
if (out.length) process.stdout.write(out.join('\n') + '\n');
