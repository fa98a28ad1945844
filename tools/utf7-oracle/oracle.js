// Answers UTF-7 / IMAP UTF-7 requests with Node's utf7 package, one JSON object per line.
// Request: {"op": "decode"|"encode"|"imap_decode"|"imap_encode", "input": string}.
// Bytes travel as latin-1 strings (one character per byte). Reply: {"output": string} or
// {"error": message}.
'use strict';
const utf7 = require('utf7');
const readline = require('readline');
const ops = {
  decode: (s) => utf7.decode(s),
  encode: (s) => utf7.encode(s),
  imap_decode: (s) => utf7.imap.decode(s),
  imap_encode: (s) => utf7.imap.encode(s),
};
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  let reply;
  try {
    reply = { output: ops[req.op](req.input) };
  } catch (e) {
    reply = { error: String(e && e.message) };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
});
