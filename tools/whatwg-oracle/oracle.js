#!/usr/bin/env node
// The WHATWG Encoding Standard oracle for onemail's differential tests.
//
// Decodes byte strings with the decoders of the npm package @sinonjs/text-encoding (a
// JavaScript implementation of the Encoding Standard's algorithms and indexes), NOT with Node's
// built-in TextDecoder (Node 20 reads windows-1252, latin1 and ascii as plain ISO-8859-1).
// Driven by record.py; nothing here is part of the product.
//
// Usage:
//   node oracle.js version            -> {"package": ..., "version": ..., "node": ...}
//   node oracle.js indexes            -> the package's index tables as JSON
//   node oracle.js decode < requests  -> one output line per request line
//
// A request line is JSON {"encoding": NAME, "hex": [HEX, ...]}; its output line is JSON
// {"texts": [TEXT or null, ...]}: each input decoded on its own, as a complete stream (end-of-queue after
// the last byte), error mode "replacement", with ignoreBOM so that a BOM stays U+FEFF (onemail
// sniffs no BOM inside a charset decoder); null where the package throws a TypeError. JSON.stringify writes a lone surrogate as a \uXXXX
// escape (well-formed JSON.stringify, ES2019), so every output survives the trip to Python.
'use strict';

const readline = require('readline');
const pkg = require('@sinonjs/text-encoding/package.json');
const oracle = require('@sinonjs/text-encoding');

if (oracle.TextDecoder === globalThis.TextDecoder) {
  // The package exports global.TextDecoder when one exists in its "global" object; under
  // CommonJS that object is module.exports, so the polyfill's own class must come back here.
  throw new Error('@sinonjs/text-encoding returned Node\'s built-in TextDecoder');
}

function decodeAll(encoding, hexes) {
  const dec = new oracle.TextDecoder(encoding, { ignoreBOM: true });
  if (dec.encoding !== encoding) {
    throw new Error(`label ${encoding} resolved to ${dec.encoding}`);
  }
  // decode() without {stream: true} makes a new decoder for each call (the standard's
  // "If the do not flush flag is unset, set decoder to a new instance").
  // A case on which the package throws is recorded as null (its ISO-8859-8-I decoder looks up
  // a missing "iso-8859-8-i" index and throws a TypeError on every byte 0x80-0xFF).
  return hexes.map((h) => {
    try {
      return dec.decode(Buffer.from(h, 'hex'));
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      return null;
    }
  });
}

function main() {
  const mode = process.argv[2];
  if (mode === 'version') {
    process.stdout.write(JSON.stringify({ package: pkg.name, version: pkg.version, node: process.version }) + '\n');
  } else if (mode === 'indexes') {
    const ix = require('@sinonjs/text-encoding/lib/encoding-indexes.js')['encoding-indexes'];
    process.stdout.write(JSON.stringify(ix) + '\n');
  } else if (mode === 'decode') {
    const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    const out = [];
    rl.on('line', (line) => {
      if (!line) return;
      const req = JSON.parse(line);
      out.push(JSON.stringify({ texts: decodeAll(req.encoding, req.hex) }));
    });
    rl.on('close', () => {
      process.stdout.write(out.join('\n') + '\n');
    });
  } else {
    process.stderr.write('usage: node oracle.js version|indexes|decode\n');
    process.exit(2);
  }
}

main();
